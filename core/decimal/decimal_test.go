package decimal

import (
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// jsonNumber is JSON's number grammar (RFC 8259 §6), the reference for what Parse accepts.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

var two64 = new(big.Int).Lsh(big.NewInt(1), 64)

// exponent returns the value of s's exponent part and whether it is small enough for big.Rat
// to expand (|e| ≤ 100000); 0, true without one.
func exponent(s string) (int64, bool) {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return 0, true
	}
	e, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
	return e, err == nil && e >= -100000 && e <= 100000
}

// want is ⌊|s| × 10^k⌋, whether that is exact and whether it is below 2^64, from big.Rat.
func want(t testing.TB, s string, k int) (uint64, bool, bool) {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat(%q)", s)
	}
	r.Abs(r)
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if q.Cmp(two64) >= 0 {
		return 0, false, false
	}
	return q.Uint64(), m.Sign() == 0, true
}

// check compares Parse and Scaled on s with the references.
func check(t testing.TB, s string) {
	t.Helper()
	x, ok := Parse([]byte(s))
	if ok != jsonNumber.MatchString(s) {
		t.Fatalf("Parse(%.60q): ok = %v, JSON's grammar says %v", s, ok, !ok)
	}
	if !ok {
		return
	}
	if x.Neg != strings.HasPrefix(s, "-") {
		t.Fatalf("Parse(%.60q).Neg = %v", s, x.Neg)
	}
	if _, small := exponent(s); !small || len(s) > 5000 {
		return // TestHugeExponents
	}
	r, _ := new(big.Rat).SetString(s)
	if x.IsZero() != (r.Sign() == 0) {
		t.Fatalf("Parse(%.60q).IsZero() = %v", s, x.IsZero())
	}
	for _, k := range []int{0, 1, 5, 19} {
		v, exact, fits := x.Scaled(k)
		wv, wexact, wfits := want(t, s, k)
		if fits != wfits || fits && (v != wv || exact != wexact) || !fits && v != 0 {
			t.Fatalf("Parse(%.60q).Scaled(%d) = %d, %v, %v; want %d, %v, %v", s, k, v, exact, fits, wv, wexact, wfits)
		}
	}
}

var cases = []string{
	"0", "-0", "0.0", "-0.000", "0e0", "0E+5", "0.000e999999", "0e-999999999999999999999", "1", "-1", "10", "100",
	"1.5", "0.1", "0.03625", "3625e-5", "0.0362500", "362.5e-4", "0.036249999999999999999", "1e0", "1.0", "1.00001",
	"0.99999", "0.999995", "1E-5", "1e-6", "0.00001", "0.000009", "12.34e1", "12.34e2", "12.34e3", "1.234e-1",
	"18446744073709551615", "18446744073709551616", "1.8446744073709551615e19", "184467440737095516.15e2",
	"18446744073709551615.5", "99999999999999999999", "100000000000000000000", "1e19", "1e20", "2147483647.0000000001",
	"-2147483648.5", "0.5e1", "5e-1", "00", "01", "-", "+1", "1.", ".5", "1e", "1e+", "1e-", "1.e3", "--1", "1ee3",
	"1e3.5", "0x10", "NaN", "Infinity", "-Infinity", "1_000", " 1", "1 ", "", "1,5", "١",
	"0." + strings.Repeat("0", 3000) + "1", "1" + strings.Repeat("0", 3000), strings.Repeat("9", 4000) + "e-3990",
}

func TestParseCases(t *testing.T) {
	for _, s := range cases {
		check(t, s)
	}
}

// TestParseRandom: random texts from an alphabet of number bytes (most malformed), and
// random well-formed numbers of every shape.
func TestParseRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	digs := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
			if r.IntN(3) == 0 {
				b[i] = '0'
			}
		}
		return string(b)
	}
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			b := make([]byte, r.IntN(12))
			for j := range b {
				b[j] = "0123456789.eE+-"[r.IntN(15)]
			}
			check(t, string(b))
			continue
		}
		s := digs(1 + r.IntN(25))
		s = strings.TrimLeft(s, "0")
		if s == "" {
			s = "0"
		}
		if r.IntN(2) == 0 {
			s += "." + digs(1+r.IntN(25))
		}
		if r.IntN(2) == 0 {
			s += []string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)] + strconv.Itoa(r.IntN(40))
		}
		if r.IntN(3) == 0 {
			s = "-" + s
		}
		check(t, s)
	}
}

// TestHugeExponents: exponents far past any float64, and long texts, answer at once.
func TestHugeExponents(t *testing.T) {
	for _, c := range []struct {
		s           string
		v           uint64
		exact, fits bool
	}{
		{"1e99999999999999999999999999", 0, false, false},
		{"1e-99999999999999999999999999", 0, false, true},
		{"0e99999999999999999999999999", 0, true, true},
		{"-0.5e-9223372036854775808", 0, false, true},
		{"1" + strings.Repeat("0", 1000000) + "e-1000000", 1, true, true},
		{"0." + strings.Repeat("0", 1000000) + "1e1000001", 1, true, true},
		{"1" + strings.Repeat("0", 1000000) + "e-999999999999", 0, false, true},
		{"0." + strings.Repeat("0", 1000000) + "1e999999999999", 0, false, false},
	} {
		x, ok := Parse([]byte(c.s))
		if !ok {
			t.Fatalf("Parse(%.40q) failed", c.s)
		}
		if v, exact, fits := x.Scaled(0); v != c.v || exact != c.exact || fits != c.fits {
			t.Errorf("Parse(%.40q).Scaled(0) = %d, %v, %v; want %d, %v, %v", c.s, v, exact, fits, c.v, c.exact, c.fits)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range cases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		check(t, s)
	})
}
