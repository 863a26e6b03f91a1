package main

import (
	"strconv"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/engine"
)

// summary is what draw answers: the result without its cells and lines, as JSON text —
//
//	{"count": 25, "targets": [{"id": "g1", "inArea": true, "affected": true, "cover": "none", "bonus": 0}, …]}
//
// with each target's reason when it has one (CONTRACT evaluate's fields, same names, same
// values). Written by hand: the module links neither encoding/json nor reflect.
func summary(res *engine.Result) []byte {
	b := make([]byte, 0, 32+64*len(res.Targets))
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(res.Count), 10)
	b = append(b, `,"targets":[`...)
	for i := range res.Targets {
		t := &res.Targets[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendString(b, t.ID)
		b = append(b, `,"inArea":`...)
		b = strconv.AppendBool(b, t.InArea)
		b = append(b, `,"affected":`...)
		b = strconv.AppendBool(b, t.Affected)
		if t.Reason != "" {
			b = append(b, `,"reason":`...)
			b = appendString(b, string(t.Reason))
		}
		b = append(b, `,"cover":`...)
		b = appendString(b, string(t.Cover))
		b = append(b, `,"bonus":`...)
		b = strconv.AppendInt(b, int64(t.Bonus), 10)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendString appends s as a JSON string: quotes, backslashes and control characters escaped,
// invalid UTF-8 replaced by U+FFFD (as encoding/json does).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}
