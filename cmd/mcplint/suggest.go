package main

// "Did you mean": an unknown command, flag or value names the one the user
// probably meant (cobra's SuggestionsFor for commands, internal/suggest for
// flags and values).

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/mcplint/mcplint/internal/escape"
	"github.com/mcplint/mcplint/internal/suggest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// didYouMean returns `; did you mean "x"?` for the name in names nearest to
// name, or "".
func didYouMean(name string, names []string) string {
	if s := suggest.Closest(name, names, 3); s != "" {
		return fmt.Sprintf("; did you mean %s?", escape.Quote(s))
	}
	return ""
}

// unknownCommand returns a usage error when the root command's first
// argument is not an existing path and cobra finds a command like it
// (`mcplint chek .`), or nil: a path that does not exist is reported as
// before (MCP000), and an existing file or folder named like a command is
// analysed.
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) == 0 || strings.ContainsAny(args[0], `/\.`) {
		return nil
	}
	if _, err := os.Lstat(args[0]); err == nil || !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if s := root.SuggestionsFor(args[0]); len(s) > 0 {
		return usageError{fmt.Errorf("unknown command %s; did you mean %s? (to analyse a path of that name, write ./%s)",
			escape.Quote(args[0]), escape.Quote(s[0]), escape.Visible(args[0]))}
	}
	return nil
}

// flagError is every command's flag error function: an unknown flag gets
// the nearest flag of the command as a suggestion.
func flagError(c *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedShortnames() == "" {
		var names []string
		if c.Flags().Lookup("output-format") != nil {
			names = append(names, "format") // its alias
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if s := suggest.Closest(ne.GetSpecifiedName(), names, 3); s != "" {
			return usageError{fmt.Errorf("%w; did you mean --%s?", err, s)}
		}
	}
	return usageError{err}
}
