package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/mcplint/mcplint/internal/safeio"
)

// This file finds the files git reads exclude patterns from besides the
// .gitignore files: the repository's common git folder (for info/exclude)
// and core.excludesFile. Only that one key of git's config files is read.

var errNotDir error = syscall.ENOTDIR

// commonDir is the folder holding info/exclude and config for the
// repository whose ".git" entry is gitPath: gitPath itself, or for a
// worktree or submodule (".git" a file saying "gitdir: X") X, or the folder
// X/commondir names.
func commonDir(gitPath string) string {
	gitDir := gitPath
	if fi, err := os.Stat(gitPath); err == nil && fi.Mode().IsRegular() {
		src, err := safeio.ReadFile(gitPath, safeio.Config)
		if err != nil {
			return gitPath
		}
		line, _, _ := strings.Cut(string(src), "\n")
		v, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "gitdir: ")
		if !ok || v == "" {
			return gitPath
		}
		if !filepath.IsAbs(v) {
			v = filepath.Join(filepath.Dir(gitPath), v)
		}
		gitDir = v
	}
	if src, err := safeio.ReadFile(filepath.Join(gitDir, "commondir"), safeio.Config); err == nil {
		v := strings.TrimRight(strings.SplitN(string(src), "\n", 2)[0], "\r")
		if v != "" {
			if !filepath.IsAbs(v) {
				v = filepath.Join(gitDir, v)
			}
			return v
		}
	}
	return gitDir
}

// excludesFile is the file core.excludesFile names (the system, global and
// repository config files read in git's order, the last setting winning),
// or by default $XDG_CONFIG_HOME/git/ignore (~/.config/git/ignore); "" for
// none. A relative name is relative to the repository's top, as git runs
// from there.
func excludesFile(common, top string) string {
	home := os.Getenv("HOME")
	xdg := os.Getenv("XDG_CONFIG_HOME")
	var files []string
	if !gitBool(os.Getenv("GIT_CONFIG_NOSYSTEM")) {
		if f := os.Getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if f, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		if f != "" {
			files = append(files, f)
		}
	} else {
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		} else if home != "" {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(common, "config"))
	value, set := "", false
	for _, f := range files {
		src, err := safeio.ReadFile(f, safeio.Config)
		if err != nil {
			continue
		}
		if v, ok := configValue(string(src), "core", "excludesfile"); ok {
			value, set = v, true
		}
	}
	if !set {
		switch {
		case xdg != "":
			return filepath.Join(xdg, "git", "ignore")
		case home != "":
			return filepath.Join(home, ".config", "git", "ignore")
		}
		return ""
	}
	switch {
	case value == "":
		return ""
	case value == "~" || strings.HasPrefix(value, "~/"):
		if home == "" {
			return ""
		}
		value = home + value[1:]
	case strings.HasPrefix(value, "~"):
		return "" // ~user: not resolved
	}
	value = filepath.FromSlash(value)
	if !filepath.IsAbs(value) {
		value = filepath.Join(filepath.FromSlash(top), value)
	}
	return value
}

func gitBool(v string) bool {
	switch strings.ToLower(v) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// configValue returns the last value of section.key (no subsection; both
// lower case) in a git config file, with git's syntax: "[section]" headers
// (case-insensitive), "key = value" lines, "#" and ";" comments, double
// quotes, the escapes \\ \" \n \t \b and a backslash before a newline.
func configValue(src, section, key string) (string, bool) {
	value, found := "", false
	cur := ""
	i := 0
	for i < len(src) {
		// Skip blanks and blank lines.
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
		if i >= len(src) {
			break
		}
		switch c := src[i]; {
		case c == '#' || c == ';':
			i = skipLine(src, i)
		case c == '[':
			end := strings.IndexByte(src[i:], ']')
			if end < 0 {
				return value, found
			}
			h := strings.TrimSpace(src[i+1 : i+end])
			if strings.ContainsAny(h, " \t\"") {
				cur = "" // [section "subsection"]
			} else {
				cur = strings.ToLower(h) // "[section.sub]" never equals a bare section
			}
			i += end + 1
		default:
			j := i
			for j < len(src) && (isAlpha(int(src[j])) || isDigit(int(src[j])) || src[j] == '-') {
				j++
			}
			name := strings.ToLower(src[i:j])
			if name == "" {
				i = skipLine(src, i)
				continue
			}
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			var v string
			has := false
			if j < len(src) && src[j] == '=' {
				v, j = parseConfigValue(src, j+1)
				has = true
			} else {
				j = skipLine(src, j)
			}
			if cur == section && name == key && has {
				value, found = v, true
			}
			i = j
		}
	}
	return value, found
}

func skipLine(src string, i int) int {
	if k := strings.IndexByte(src[i:], '\n'); k >= 0 {
		return i + k + 1
	}
	return len(src)
}

// parseConfigValue reads a value from src[i:] to the end of its line (git's
// parse_value) and returns it with the index after the line.
func parseConfigValue(src string, i int) (string, int) {
	var b strings.Builder
	quoted := false
	pending := 0 // whitespace seen outside quotes, kept only before more text
	started := false
	for ; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			if quoted {
				return b.String(), i + 1 // git: an error; the value so far
			}
			return b.String(), i + 1
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if started {
				pending++
			}
			continue
		}
		if !quoted && (c == '#' || c == ';') {
			return b.String(), skipLine(src, i)
		}
		for ; pending > 0; pending-- {
			b.WriteByte(' ')
		}
		started = true
		switch c {
		case '\\':
			i++
			if i >= len(src) {
				return b.String(), i
			}
			switch src[i] {
			case '\n':
				// continuation
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				s := b.String()
				b.Reset()
				if s != "" {
					b.WriteString(s[:len(s)-1])
				}
			case '\\', '"':
				b.WriteByte(src[i])
			default:
				return b.String(), skipLine(src, i) // git: an error
			}
		case '"':
			quoted = !quoted
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), i
}
