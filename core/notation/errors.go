package notation

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/internal/num"
)

// ErrSyntax is wrapped by every error Parse returns.
var ErrSyntax = errors.New("notation: syntax")

// A SyntaxError reports text that is not template notation. Pos is CONTRACT's "at".
type SyntaxError struct {
	Text string // the text given to Parse, unchanged
	Pos  int    // 1-based rune position where parsing failed; just past the last non-space rune if the text ended too soon
	Msg  string // what was wrong and what was expected
}

// maxQuoted is the number of runes of Text an error message repeats.
const maxQuoted = 40

// Error returns "Text: Msg at position Pos", Text cut to its first 40 runes and an ellipsis when
// longer, and left out when the text is blank.
func (e *SyntaxError) Error() string {
	s := e.Msg + " at position " + num.Itoa(e.Pos)
	if blank(e.Text) {
		return s
	}
	text := e.Text
	if utf8.RuneCountInString(text) > maxQuoted {
		n := 0
		for i := range text {
			if n == maxQuoted {
				text = text[:i] + "…"
				break
			}
			n++
		}
	}
	return text + ": " + s
}

// Unwrap returns ErrSyntax.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

func blank(s string) bool { return strings.TrimSpace(s) == "" }
