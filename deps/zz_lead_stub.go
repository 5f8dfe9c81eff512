package deps

// TEMPORARY stub written by the lead so that package engine compiles while the
// deps owner works. deps owner: delete this file as soon as you define these
// names yourself (same signatures).

// FileError is an error at a position of a dependency file.
type FileError struct {
	Path                 string
	Offset, Line, Column int
	Msg                  string
}

func (e *FileError) Error() string { return e.Path + ": " + e.Msg }

// HasScriptBlock reports whether a Python file has PEP 723 metadata.
func HasScriptBlock(src []byte) bool { return false }

// LoadScript reads a PEP 723 script's metadata.
func LoadScript(path string, src []byte, opts Options) (*Project, []error) {
	return &Project{Dir: path}, nil
}
