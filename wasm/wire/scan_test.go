package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanMalformed(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{``, "malformed JSON at byte 0: unexpected end of input"},
		{`   `, "malformed JSON at byte 3: unexpected end of input"},
		{`{"text": "Con4NE" "x": 1}`, "malformed JSON at byte 18: expected ',' or '}'"},
		{`{"a":1,}`, "malformed JSON at byte 7: expected a field name (a string)"},
		{`{a:1}`, "malformed JSON at byte 1: expected a field name (a string)"},
		{`{"a" 1}`, "malformed JSON at byte 5: expected ':'"},
		{`{"a":}`, "malformed JSON at byte 5: expected a value"},
		{`[1,2`, "malformed JSON at byte 4: unexpected end of input"},
		{`[1 2]`, "malformed JSON at byte 3: expected ',' or ']'"},
		{`[1,]`, "malformed JSON at byte 3: expected a value"},
		{`{"a":1}x`, "malformed JSON at byte 7: unexpected data after the JSON value"},
		{`{"a":1} {}`, "malformed JSON at byte 8: unexpected data after the JSON value"},
		{`01`, "malformed JSON at byte 1: unexpected data after the JSON value"},
		{`-`, "malformed JSON at byte 1: unexpected end of input"},
		{`-a`, "malformed JSON at byte 1: expected a digit"},
		{`1.`, "malformed JSON at byte 2: unexpected end of input"},
		{`1.e5`, "malformed JSON at byte 2: expected a digit"},
		{`1e`, "malformed JSON at byte 2: unexpected end of input"},
		{`1e+x`, "malformed JSON at byte 3: expected a digit"},
		{`+1`, "malformed JSON at byte 0: expected a value"},
		{`.5`, "malformed JSON at byte 0: expected a value"},
		{`NaN`, "malformed JSON at byte 0: expected a value"},
		{`tru`, "malformed JSON at byte 3: unexpected end of input"},
		{`trux`, "malformed JSON at byte 3: expected true"},
		{`nul1`, "malformed JSON at byte 3: expected null"},
		{`"abc`, "malformed JSON at byte 4: unexpected end of input"},
		{"\"a\tb\"", "malformed JSON at byte 2: control character in string (escape it)"},
		{`"\x"`, "malformed JSON at byte 2: invalid escape in string"},
		{`"\u12g4"`, `malformed JSON at byte 5: expected 4 hexadecimal digits after \u`},
		{"\"\xff\"", "malformed JSON at byte 1: invalid UTF-8"},
		{"\"\xed\xa0\x80\"", "malformed JSON at byte 1: invalid UTF-8"},
		{"\xef\xbb\xbf{}", "malformed JSON at byte 0: expected a value"},
		{`{"a":1}` + "\x00", "malformed JSON at byte 7: unexpected data after the JSON value"},
		{`'a'`, "malformed JSON at byte 0: expected a value"},
		{strings.Repeat("[", 65) + strings.Repeat("]", 65), "malformed JSON at byte 64: nested deeper than 64 levels"},
		{`{"a":` + strings.Repeat(`{"a":`, 64) + "1" + strings.Repeat("}", 65), "malformed JSON at byte 320: nested deeper than 64 levels"},
	} {
		err := scan([]byte(c.in))
		if err == nil {
			t.Errorf("scan(%q) accepted", c.in)
			continue
		}
		if err.Code != "bad_request" || err.Message != c.msg {
			t.Errorf("scan(%q) = %s: %q, want %q", c.in, err.Code, err.Message, c.msg)
		}
	}
}

func TestScanValid(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, ` {"a" : [ 1 , -0 , 0.5 , 1e5 , 1E-5 , 1.5e+3 , -12.25 ] } `, `"x"`, `0`, `-0`, `true`, `false`, `null`,
		`"\"\\\/\b\f\n\r\t\u0041\uD83D\uDE00\ud800"`, "\"é日本😀\"", "\t\r\n[\n]\n",
		strings.Repeat("[", 64) + strings.Repeat("]", 64),
	} {
		if err := scan([]byte(in)); err != nil {
			t.Errorf("scan(%q) = %v", in, err)
		}
	}
}

// depth returns the deepest nesting in valid JSON.
func depth(data []byte) int {
	d, max, inStr := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '{' || c == '['):
			d++
			max = maxInt2(max, d)
		case !inStr && (c == '}' || c == ']'):
			d--
		}
	}
	return max
}

func maxInt2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// FuzzScan checks the scanner against encoding/json: it accepts exactly what json.Valid does,
// less invalid UTF-8 and nesting past MaxDepth, which it refuses on purpose.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2,{"b":null}]}`, `"\u00e9"`, `[1e5,-0.5]`, `{"a":1,}`, `[`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := scan(data)
		want := json.Valid(data) && utf8.Valid(data)
		if want && depth(data) > MaxDepth {
			want = false
		}
		if (err == nil) != want {
			t.Fatalf("scan(%q) = %v, json.Valid says %v", data, err, want)
		}
		if err != nil && !strings.HasPrefix(err.Message, "malformed JSON at byte ") {
			t.Fatalf("scan(%q): message %q", data, err.Message)
		}
	})
}
