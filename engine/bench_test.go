package engine

import "testing"

// BenchmarkRunExample runs the whole analysis on the built-in example.
func BenchmarkRunExample(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Run([]string{"../testdata/examples/weather"}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
