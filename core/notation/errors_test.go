package notation

import (
	"strings"
	"testing"
)

// The error text of §2.2, whole.
func TestSyntaxErrorText_2_2(t *testing.T) {
	_, err := Parse("Con4")
	const want = "Con4: a cone needs a direction (N, NE, E, SE, S, SW, W, NW) at position 5"
	if err == nil || err.Error() != want {
		t.Fatalf("Parse(\"Con4\") error = %v, want %q", err, want)
	}
	_, err = Parse("")
	if err == nil || strings.HasPrefix(err.Error(), ":") || !strings.HasSuffix(err.Error(), " at position 1") {
		t.Errorf("Parse(\"\") error = %v", err)
	}
	long := "Cir3" + strings.Repeat("é", 100)
	_, err = Parse(long)
	if err == nil || !strings.HasPrefix(err.Error(), "Cir3"+strings.Repeat("é", 36)+"…: ") {
		t.Errorf("long text error = %v", err)
	}
	if se := (&SyntaxError{}); se.Unwrap() != ErrSyntax {
		t.Errorf("Unwrap = %v", se.Unwrap())
	}
}
