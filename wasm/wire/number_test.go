package wire

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

func TestParseUint(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cases := []string{"", "0", "00042", "18446744073709551615", "18446744073709551616", "99999999999999999999",
		"184467440737095516150", "1844674407370955161.5", "18446744073709551616e-1", "1e3", "-1", "+1", "1_0", " 1"}
	for i := 0; i < 100000; i++ {
		b := make([]byte, r.IntN(24))
		for j := range b {
			b[j] = "0123456789012345678901234567890123456789.e-"[r.IntN(43)]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		want, err := strconv.ParseUint(s, 10, 64)
		got, ok := parseUint([]byte(s))
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("parseUint(%q) = %d, %v; strconv gives %d, %v", s, got, ok, want, err)
		}
	}
}

// ratOf is the exact value of the JSON number s, or nil when its exponent is too large for
// big.Rat to expand quickly (past ±10000).
func ratOf(t testing.TB, s string) *big.Rat {
	t.Helper()
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.ParseInt(strings.TrimPrefix(s[i+1:], "+"), 10, 64)
		if err != nil || e < -10000 || e > 10000 {
			return nil
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat(%q)", s)
	}
	return r
}

// fillWant is SPEC §5.1 for a fill of exact value r: n/400 for the nearest n, a tie rounding
// up, at least 1/400, and 0 (a full block) for 0; ok is false when r is not 0 or in (0, 1].
func fillWant(r *big.Rat) (n int64, ok bool) {
	if r.Sign() == 0 { // a full block, as an absent fill: Obstacle.Fill 0
		return 0, true
	}
	if r.Sign() < 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
		return 0, false
	}
	x := new(big.Rat).Mul(r, big.NewRat(400, 1))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom()) // ⌊400r + ½⌋, x > 0
	return max(1, q.Int64()), true
}

// coordWant is the lattice value of a wall's coordinate r (SPEC §5.6, rounded as §5.1 says):
// ⌊400r + ½⌋, the nearest n/400 with a tie rounding up; ok is false past ±1 000 000.
func coordWant(r *big.Rat) (n int64, ok bool) {
	if new(big.Rat).Abs(r).Cmp(big.NewRat(1000000, 1)) > 0 {
		return 0, false
	}
	x := new(big.Rat).Mul(r, big.NewRat(400, 1))
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean: ⌊x⌋, the denominator being positive
	return q.Int64(), true
}

// decodeFills decodes one request whose obstacles have the given fill texts.
func decodeFills(t testing.TB, fills []string) ([]engine.Obstacle, *engine.Error) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"obstacles": [`)
	for i, f := range fills {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"x": %d, "fill": %s}`, i, f)
	}
	b.WriteString(`]}`)
	req, err := DecodeRequest([]byte(b.String()))
	if err != nil {
		return nil, err
	}
	return req.Obstacles, nil
}

// SPEC §5.1: every decimal of up to five places in (0, 1], k/100000 for k = 1 … 100000, in
// its shortest form (0.03625), with trailing zeros (0.0362500) and as an exponent (3625e-5,
// 3.625e-2), rounds to ⌊400k/100000 + ½⌋ = ⌊(800k + 100000)/200000⌋, at least 1: the 400
// ties k = 125 × odd round up. The wire hands the engine n/400 exactly.
func TestDecodeFill_5_1_EveryFiveDecimalPlace(t *testing.T) {
	const n = 100000
	forms := [][]string{make([]string, n), make([]string, n), make([]string, n), make([]string, n)}
	want := make([]int64, n)
	ties := 0
	for k := 1; k <= n; k++ {
		want[k-1] = max(1, int64(800*k+100000)/200000)
		if (800*k)%100000 == 0 && (800*k/100000)%2 == 1 {
			ties++
			if want[k-1] != int64(800*k/100000+1)/2 {
				t.Fatalf("k = %d: a tie must round up", k)
			}
		}
		frac := strings.TrimRight(fmt.Sprintf("%05d", k), "0")
		short := "0." + frac
		if k == n {
			short = "1"
		}
		forms[0][k-1] = short
		forms[1][k-1] = fmt.Sprintf("%d.%05d000", k/n, k%n)
		forms[2][k-1] = fmt.Sprintf("%de-5", k)
		m := strings.TrimRight(strconv.Itoa(k), "0")
		forms[3][k-1] = fmt.Sprintf("%s.%se%d", m[:1], m[1:]+"0", len(strconv.Itoa(k))-6)
	}
	if ties != 400 {
		t.Fatalf("%d ties, want 400", ties)
	}
	for f, texts := range forms {
		obs, err := decodeFills(t, texts)
		if err != nil {
			t.Fatalf("form %d: %v", f, err)
		}
		for i, o := range obs {
			if r := ratOf(t, texts[i]); r.Cmp(big.NewRat(int64(i+1), n)) != 0 {
				t.Fatalf("the test wrote %s for %d/100000", texts[i], i+1)
			}
			if w := float64(want[i]) / 400; o.Fill != w {
				t.Fatalf("fill %s: %v (%v/400), want %d/400", texts[i], o.Fill, o.Fill*400, want[i])
			}
		}
	}
}

// SPEC §5.1, §1.6: fills outside (0, 1] are errors naming the field, whatever their form, but
// for 0, which is a full block (as an absent fill, Obstacle.Fill's zero value); a positive fill
// below 1/800 is the smallest, 1/400, however small.
func TestDecodeFill_5_1_Range(t *testing.T) {
	for _, c := range []struct{ fill, msg string }{
		{"-0.5", "obstacles[0].fill: expected a number in (0, 1], got -0.5"},
		{"-1e-999999999999", "obstacles[0].fill: expected a number in (0, 1], got -1e-999999999999"},
		{"1.00001", "obstacles[0].fill: expected a number in (0, 1], got 1.00001"},
		{"1.0000000000000000000000001", "obstacles[0].fill: expected a number in (0, 1], got 1.0000000000000000000000…"},
		{"1e999999999999999999999", "obstacles[0].fill: expected a number in (0, 1], got 1e999999999999999999999"},
		{"1e999", "obstacles[0].fill: expected a number in (0, 1], got 1e999"},
		{"2", "obstacles[0].fill: expected a number in (0, 1], got 2"},
		{`"0.5"`, "obstacles[0].fill: expected a number in (0, 1], got a string"},
		{`true`, "obstacles[0].fill: expected a number in (0, 1], got a boolean"},
		{`NaN`, "malformed JSON at byte 32: expected a value"},
		{`Infinity`, "malformed JSON at byte 32: expected a value"},
		{`.5`, "malformed JSON at byte 32: expected a value"},
	} {
		_, err := decodeFills(t, []string{c.fill})
		if err == nil || err.Message != c.msg {
			t.Errorf("fill %s: error %v, want %q", c.fill, err, c.msg)
		}
	}
	for _, c := range []struct {
		fill string
		n    int
	}{
		{"1", 400}, {"1.0", 400}, {"1e0", 400}, {"10e-1", 400}, {"0.1e1", 400}, {"100000e-5", 400}, {"0.99875", 400},
		{"0.99874999999999999999999999", 399}, {"0.00125", 1}, {"0.001249", 1}, {"0.00375", 2}, {"0.0037499999", 1},
		{"1e-999999999999", 1}, {"0." + strings.Repeat("0", 100000) + "1", 1}, {"0.036249999999999999999999", 14},
		{"0.03625", 15}, {"0.5", 200}, {"5e-1", 200},
	} {
		obs, err := decodeFills(t, []string{c.fill})
		if err != nil || obs[0].Fill != float64(c.n)/400 {
			t.Errorf("fill %.40s: %v, %v; want %d/400", c.fill, obs, err, c.n)
		}
	}
	// null is an absent fill, and 0 (in any form) reads as one: a full block (engine.Obstacle's 0).
	for _, zero := range []string{"null", "0", "-0", "0.000e5", "0e-999999999999"} {
		if obs, err := decodeFills(t, []string{zero}); err != nil || obs[0].Fill != 0 {
			t.Errorf("fill %s: %v, %v; want 0", zero, obs, err)
		}
	}
}

// checkNumber decodes the JSON number s as a fill, an integer and a seed, and compares each
// with what its exact value says (SPEC §5.1; CONTRACT integers within ±2^31; seeds 0 … 2^64−1).
// Numbers whose exponent big.Rat cannot expand are left to TestDecodeFill_5_1_Range and
// TestDecodeIntegers.
func checkNumber(t *testing.T, s string) {
	t.Helper()
	r := ratOf(t, s)
	if r == nil {
		return
	}
	obs, ferr := decodeFills(t, []string{s})
	if n, ok := fillWant(r); ok != (ferr == nil) || ok && obs[0].Fill != float64(n)/400 {
		t.Fatalf("fill %.60s: %v, %v; want %d/400 (in range %v)", s, obs, ferr, n, ok)
	}
	req, err := DecodeRequest([]byte(`{"tokens": [{"x": ` + s + `}]}`))
	switch {
	case r.Cmp(big.NewRat(-1<<31, 1)) < 0 || r.Cmp(big.NewRat(1<<31-1, 1)) > 0:
		if err == nil || !strings.HasSuffix(err.Message, "out of range (-2147483648 to 2147483647)") {
			t.Fatalf("x %.60s: %v, %v; want out of range", s, req, err)
		}
	case !r.IsInt():
		if err == nil || !strings.HasPrefix(err.Message, "tokens[0].x: expected an integer, got ") {
			t.Fatalf("x %.60s: %v, %v; want not an integer", s, req, err)
		}
	case err != nil || int64(req.Tokens[0].X) != r.Num().Int64():
		t.Fatalf("x %.60s: %v, %v; want %v", s, req, err, r.Num())
	}
	req, err = DecodeRequest([]byte(`{"resolve": {"seed": ` + s + `}}`))
	if r.IsInt() && r.Sign() >= 0 && r.Num().Cmp(new(big.Int).Lsh(big.NewInt(1), 64)) < 0 {
		if err != nil || req.Resolve.Seed != r.Num().Uint64() {
			t.Fatalf("seed %.60s: %v, %v; want %v", s, req, err, r.Num())
		}
	} else if err == nil || !strings.HasPrefix(err.Message, "resolve.seed: expected an integer from 0 to 18446744073709551615, got ") {
		t.Fatalf("seed %.60s: %v, %v; want an error", s, req, err)
	}
}

var numberCases = []string{
	"0", "-0", "0.0", "-0.0", "0e0", "0e-999999999999", "0.000e999999", "1", "-1", "10", "1.5", "0.1", "0.3", "0.5",
	"0.03625", "3625e-5", "0.036250", "0.036249999999999999999", "0.0362500000000000000001", "1e3", "1E3", "1e+3",
	"4.0", "2147483647", "2147483648", "-2147483648", "-2147483649", "2147483647.0000000000000000001",
	"2147483647.5", "-2147483648.4", "-2147483648.0000001", "214748364.75e1", "1e10", "1e400", "-1e400", "1e-400",
	"18446744073709551615", "18446744073709551616", "1.8446744073709551615e19", "18446744073709551615.0",
	"18446744073709551615.5", "1e19", "1e20", "9007199254740993", "9007199254740993.0000000001", "0.99999999999999999999",
	"1.0000000000000000000001", "0.00125", "0.001249999", "123456789e-300", "1" + strings.Repeat("0", 900) + "e-900",
	"0." + strings.Repeat("0", 1000) + "1e1000", "-" + strings.Repeat("3", 1000) + "e-1000",
}

// TestDecodeNumbers compares the fill, integer and seed readers with exact values, on the
// cases above and on random numbers of every shape.
func TestDecodeNumbers(t *testing.T) {
	for _, s := range numberCases {
		checkNumber(t, s)
	}
	r := rand.New(rand.NewPCG(3, 4))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	digits := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		return string(b)
	}
	for i := 0; i < n; i++ {
		s := strings.TrimLeft(digits(1+r.IntN(22)), "0")
		if s == "" || r.IntN(3) == 0 {
			s = "0"
		}
		if r.IntN(2) == 0 {
			s += "." + digits(1+r.IntN(22))
		}
		if r.IntN(2) == 0 {
			s += []string{"e", "E", "e+", "e-", "E-"}[r.IntN(5)] + strconv.Itoa(r.IntN(30))
		}
		if r.IntN(4) == 0 {
			s = "-" + s
		}
		checkNumber(t, s)
	}
}

// TestDecodeIntegers: numbers too large for big.Rat to expand are out of range, or not
// integers, at once.
func TestDecodeIntegers(t *testing.T) {
	for _, c := range []struct{ x, msg string }{
		{"1e99999999999999999999", "tokens[0].x: integer 1e99999999999999999999 out of range (-2147483648 to 2147483647)"},
		{"-1e99999999999999999999", "tokens[0].x: integer -1e99999999999999999999 out of range (-2147483648 to 2147483647)"},
		{"1e-99999999999999999999", "tokens[0].x: expected an integer, got 1e-99999999999999999999"},
		{"0e99999999999999999999", ""},
		{"-0e-99999999999999999999", ""},
	} {
		req, err := DecodeRequest([]byte(`{"tokens": [{"x": ` + c.x + `}]}`))
		switch {
		case c.msg == "" && (err != nil || req.Tokens[0].X != 0):
			t.Errorf("x %s: %v, %v; want 0", c.x, req, err)
		case c.msg != "" && (err == nil || err.Message != c.msg):
			t.Errorf("x %s: %v, want %q", c.x, err, c.msg)
		}
	}
}

// FuzzDecodeNumber reads every JSON number the fuzzer finds as a fill, an integer and a seed,
// and compares each with its exact value.
func FuzzDecodeNumber(f *testing.F) {
	for _, s := range numberCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) == 0 || s[0] != '-' && !isDigit(s[0]) || len(s) > 3000 {
			return
		}
		sc := scanner{data: []byte(s)}
		if sc.number() != nil || sc.i != len(s) {
			return
		}
		checkNumber(t, s)
	})
}
