package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestQuote holds Quote to encoding/json for texts of at most 64 bytes, and to its cut past
// that: the text up to a rune's start at most 64 bytes in, then an ellipsis, as JSON.
func TestQuote(t *testing.T) {
	long := []string{
		strings.Repeat("a", 65), strings.Repeat("é", 40), strings.Repeat("x", 63) + "日本", strings.Repeat("\x00", 1<<20),
		strings.Repeat("ab", 31) + "😀😀", strings.Repeat("\xff", 100),
	}
	for _, s := range append(append([]string{}, trickyStrings...), long...) {
		got := Quote(s)
		want := s
		if len(s) > 64 {
			// the longest prefix of at most 64 bytes that ends before a rune's start
			cut := 64
			for !utf8.RuneStart(s[cut]) {
				cut--
			}
			want = s[:cut] + "…"
			if cut < 64-3 { // a rune is at most 4 bytes: at most 3 continuation bytes before the cut
				t.Fatalf("bad reference cut %d of %q", cut, s)
			}
		}
		if ref := string(stdJSON(t, want)); got != ref {
			t.Errorf("Quote(%q) = %s, want %s", s, got, ref)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("Quote(%q) = %s is not a JSON string: %v", s, got, err)
		}
		if len(got) > 2+6*64+len("…") {
			t.Errorf("Quote of %d bytes is %d bytes long", len(s), len(got))
		}
	}
}
