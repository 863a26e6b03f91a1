package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShortCutsAtACharacter: Short keeps at most 100 bytes of text from the request, and never
// half a character — for every character width at every offset around the cut: what it keeps
// is valid UTF-8 when the text was, a prefix of the text, and loses only the character the cut
// fell in.
func TestShortCutsAtACharacter(t *testing.T) {
	for _, ch := range []string{"a", "é", "€", "😀"} {
		for pad := 90; pad <= 104; pad++ {
			s := strings.Repeat("x", pad) + strings.Repeat(ch, 10)
			got := Short(s)
			if len(s) <= 100 {
				if got != s {
					t.Errorf("%d bytes: %q, want it whole", len(s), got)
				}
				continue
			}
			kept, ok := strings.CutSuffix(got, "…")
			if !ok || !strings.HasPrefix(s, kept) || !utf8.ValidString(kept) {
				t.Errorf("pad %d, %q: %q is not a prefix of whole characters and …", pad, ch, got)
			}
			if len(kept) > 100 || len(kept) <= 100-len(ch) {
				t.Errorf("pad %d, %q: kept %d bytes; want the most whole characters within 100", pad, ch, len(kept))
			}
		}
	}
}

// TestMessagesQuoteWholeCharacters: the API's messages that quote the request (an unknown
// path, a wrong method, an unsupported Content-Type) quote whole characters. Cut inside one,
// the message carried a broken sequence, which JSON writes as U+FFFD: "…aaa\ufffd…".
func TestMessagesQuoteWholeCharacters(t *testing.T) {
	h := New()
	long := "/" + strings.Repeat("a", 98) + strings.Repeat("é", 20) // é's bytes straddle byte 100
	for _, c := range []struct {
		name   string
		req    *http.Request
		status int
		quoted string // the text quoted, whole, before the cut
	}{
		{"an unknown path", httptest.NewRequest("GET", long, nil), 404, long[:99]},
		{"a Content-Type", func() *http.Request {
			r := httptest.NewRequest("POST", "/v1/parse", strings.NewReader(`{"text":"Cir3"}`))
			r.Header.Set("Content-Type", strings.Repeat("b", 99)+strings.Repeat("€", 10)) // € at byte 99: 99, 100, 101
			return r
		}(), 415, strings.Repeat("b", 99)},
	} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, c.req)
		if w.Code != c.status {
			t.Fatalf("%s: %d %s", c.name, w.Code, w.Body)
		}
		msg := errorOf(t, w).Message
		if strings.ContainsRune(msg, utf8.RuneError) || !strings.Contains(msg, c.quoted+"…") {
			t.Errorf("%s: message %q; want %q and … without U+FFFD", c.name, msg, c.quoted)
		}
	}
}

// TestOptionsStar: OPTIONS * asks about the server, not a path (RFC 9110 §9.3.7): the API answers
// it as net/http's server does when it answers it first, 200 with Content-Length: 0 and no body
// (it was a 404, "no such endpoint"). OPTIONS on a path is still a preflight.
func TestOptionsStar(t *testing.T) {
	h := New()
	for _, body := range []string{"", `{"text":"Cir3"}`} {
		req := httptest.NewRequest("OPTIONS", "*", strings.NewReader(body))
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 || w.Body.Len() != 0 || len(w.Header()) != 1 || w.Header().Get("Content-Length") != "0" {
			t.Errorf("OPTIONS * (body %q): %d %v %q; want 200, Content-Length: 0 alone, no body", body, w.Code, w.Header(), w.Body)
		}
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("OPTIONS", "/v1/parse", nil))
	if w.Code != 204 || w.Header().Get("Access-Control-Allow-Methods") == "" {
		t.Errorf("OPTIONS /v1/parse: %d %v", w.Code, w.Header())
	}
}
