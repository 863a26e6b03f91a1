package num

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Runes against strconv.IsPrint (which strconv's documentation says equals unicode.IsPrint,
// and its tests check): every rune of the planes that have printable ones (0 to 3 and 14), both
// sides of every change in the others (none, as Unicode stands), every 101st rune and values past
// the last. This also checks print_table.go against the Unicode tables of the Go that runs the
// test: if it fails after a Go update, go generate. (isPrint walks its table: a check of every
// rune takes 10 s.)
func TestIsPrint(t *testing.T) {
	for r := rune(-1); r <= unicode.MaxRune+2; r++ {
		if r >= 0x40000 && r>>16 != 14 && r%101 != 0 && r < unicode.MaxRune && strconv.IsPrint(r-1) == strconv.IsPrint(r) && strconv.IsPrint(r+1) == strconv.IsPrint(r) {
			continue
		}
		if got, want := isPrint(r), strconv.IsPrint(r); got != want {
			t.Fatalf("isPrint(%U) = %v, strconv.IsPrint says %v", r, got, want)
		}
	}
}

// Runes alone and between other text, as strconv.Quote writes them: every rune where
// printable and not printable meet (isPrint itself is checked on every rune above), and every
// 7th rune besides.
func TestGoQuoteEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r%7 != 0 && strconv.IsPrint(r-1) == strconv.IsPrint(r) && strconv.IsPrint(r+1) == strconv.IsPrint(r) {
			continue
		}
		s := string(r)
		if got, want := GoQuote(s), strconv.Quote(s); got != want {
			t.Fatalf("GoQuote(%U) = %s, strconv.Quote writes %s", r, got, want)
		}
		if r%97 == 0 {
			s = "a" + s + "\"\\\n"
			if got, want := GoQuote(s), strconv.Quote(s); got != want {
				t.Fatalf("GoQuote(%q) = %s, strconv.Quote writes %s", s, got, want)
			}
		}
	}
}

// Bytes that are not UTF-8: each byte alone, cut encodings, surrogates and overlong forms.
func TestGoQuoteInvalid(t *testing.T) {
	cases := []string{"", "\xff", "\xc3", "a\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xf0\x9f\x98", "€\x80€"}
	for b := 0; b < 256; b++ {
		cases = append(cases, string([]byte{byte(b)}), string([]byte{'x', byte(b), 0xbf, 'y'}))
	}
	for _, s := range cases {
		if got, want := GoQuote(s), strconv.Quote(s); got != want {
			t.Errorf("GoQuote(%q) = %s, strconv.Quote writes %s", s, got, want)
		}
	}
}

// Any bytes at all, against strconv.Quote; and the quoted text reads back as s.
func FuzzGoQuote(f *testing.F) {
	for _, s := range []string{"", "Cir3é", "a\x00b", "\u2028\u00ad\U0001F600", "\xff\xfe", "tab\there", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := GoQuote(s)
		if want := strconv.Quote(s); got != want {
			t.Fatalf("GoQuote(%q) = %s, strconv.Quote writes %s", s, got, want)
		}
		if back, err := strconv.Unquote(got); err != nil || utf8.ValidString(s) && back != s {
			t.Fatalf("strconv.Unquote(GoQuote(%q)) = %q, %v", s, back, err)
		}
	})
}

// Seeded random text across the code space (the fuzz target's corpus holds only its seeds in
// go test): runes from each plane, controls and stray bytes mixed.
func TestGoQuoteRandom(t *testing.T) {
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x }
	pick := []rune{0, 0x7f, 0xff, 0x7ff, 0xffff, 0x2ffff, unicode.MaxRune}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := int(next() % 12); n > 0; n-- {
			switch k := next() % 8; {
			case k == 0:
				b.WriteByte(byte(next()))
			default:
				b.WriteRune(rune(next() % uint64(pick[k-1]+1)))
			}
		}
		s := b.String()
		if got, want := GoQuote(s), strconv.Quote(s); got != want {
			t.Fatalf("GoQuote(%q) = %s, strconv.Quote writes %s", s, got, want)
		}
	}
}

// Quote: GoQuote up to MaxQuote bytes, the length past them.
func TestQuote(t *testing.T) {
	short := strings.Repeat("é", MaxQuote/2)
	if got, want := Quote(short), strconv.Quote(short); got != want {
		t.Errorf("Quote(%d bytes) = %s, want %s", len(short), got, want)
	}
	long := short + "x"
	if got, want := Quote(long), "a text of "+strconv.Itoa(MaxQuote+1)+" bytes"; got != want {
		t.Errorf("Quote(%d bytes) = %s, want %s", len(long), got, want)
	}
}
