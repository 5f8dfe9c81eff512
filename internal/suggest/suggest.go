// Package suggest finds the name a user probably meant: for "did you mean"
// in errors about unknown configuration keys, flags and values.
package suggest

// Closest returns the candidate nearest to name by edit distance, when it
// is below maxDist (ties go to the smaller candidate), or "".
func Closest(name string, candidates []string, maxDist int) string {
	best, bestD := "", maxDist
	for _, c := range candidates {
		if d := Distance(name, c); d < bestD || d == bestD && best != "" && c < best {
			best, bestD = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance of a and b (bytes).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
