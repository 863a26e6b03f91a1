package wire

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkFloat compares parseFloat with strconv.ParseFloat on a JSON number, or with an exact
// rational when strconv is wrong (see strconvWrong).
func checkFloat(t *testing.T, s string) {
	t.Helper()
	want, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		t.Fatalf("strconv.ParseFloat(%q): %v", s, err)
	}
	if strconvWrong(s) {
		want, err = exactFloat(t, s), nil
		if math.IsInf(want, 0) {
			err = strconv.ErrRange
		}
	}
	got, inf := parseFloat([]byte(s))
	if math.Float64bits(got) != math.Float64bits(want) || inf != (err != nil) {
		t.Fatalf("parseFloat(%.80q) = %v (%x), overflow %v; want %v (%x), %v",
			s, got, math.Float64bits(got), inf, want, math.Float64bits(want), err)
	}
}

// strconvWrong reports a number strconv.ParseFloat may get wrong: its slow path keeps 800
// significant digits and, past them, forgets the digits left of the point (Go 1.26: it reads
// "1" + 800 zeros + "e-800" as 0.1). parseFloat gets these right.
func strconvWrong(s string) bool {
	n := 0
	for _, c := range strings.TrimLeft(strings.TrimPrefix(s, "-"), "0") {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n > maxDigits
}

// exactFloat is the float64 nearest to s, from the exact rational.
func exactFloat(t *testing.T, s string) float64 {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat(%q)", s)
	}
	f, _ := r.Float64()
	if s[0] == '-' && f == 0 {
		f = math.Copysign(0, -1)
	}
	return f
}

func TestStrconvWrong(t *testing.T) {
	s := "1" + strings.Repeat("0", 800) + "e-800"
	if f, _ := strconv.ParseFloat(s, 64); f == 1 {
		t.Log("strconv.ParseFloat reads 1e800 digits right now: strconvWrong can go")
	}
	if f, inf := parseFloat([]byte(s)); f != 1 || inf {
		t.Errorf("parseFloat(1e800 digits e-800) = %v, %v", f, inf)
	}
}

var floatCases = []string{
	"0", "-0", "0.0", "-0.0", "0e0", "0e-999999999999", "0.000e999999", "1", "-1", "10", "1.5", "0.1", "0.3", "0.5",
	"0.3025", "1e-3", "123456789012345", "1234567890123456", "12345678901234567890", "1e22", "1e23", "1e-22", "1e-23",
	"9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995", "9007199254740993.0000000001",
	"9007199254740992.9999999999", "4.0", "1e3", "1E3", "1e+3", "2147483647.0000000000000000001", "2147483647.5",
	"-2147483648.4", "1e308", "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
	"-1.7976931348623159e308", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
	"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
	"2e308", "1e309", "1e400", "-1e400", "1e99999999999999999999", "4.9e-324", "5e-324", "3e-324", "2e-324",
	"2.4703282292062327e-324", "2.4703282292062328e-324", "2.47032822920623272088e-324", "1e-324", "1e-400",
	"2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201136057409796709131975934819546351645648e-308",
	"4.4501477170144023e-308", "0.30000000000000004", "0.1000000000000000055511151231257827021181583404541015625",
	"0.1000000000000000055511151231257827021181583404541015624", "0.1000000000000000055511151231257827021181583404541015626",
	"8.98846567431158e307", "123456789e-300", "0.000000000000000000000000000000000001234", "1" + strings.Repeat("0", 900),
	"1" + strings.Repeat("0", 900) + "e-900", "0." + strings.Repeat("0", 1000) + "1e1000", strings.Repeat("9", 2000),
	"1." + strings.Repeat("0", 850) + "1", "9007199254740993" + strings.Repeat("0", 800) + "1e-800",
	"9007199254740993" + strings.Repeat("0", 900) + "e-900", "-" + strings.Repeat("3", 1000) + "e-1000",
	"1" + strings.Repeat("0", 800) + "e-800", "0." + strings.Repeat("0", 100000) + "9e100000", "1e10000", "1e-10000",
	"1e99999", "0." + strings.Repeat("0", 9990) + "1e9999", "0." + strings.Repeat("0", 10010) + "1e10020",
	"1" + strings.Repeat("0", 10010) + "e-10020", "123" + strings.Repeat("0", 797) + "4e-801",
}

func TestParseFloatCases(t *testing.T) {
	for _, s := range floatCases {
		checkFloat(t, s)
	}
}

// midpoint returns, as an exact decimal, the point halfway between f and the next float64 up.
func midpoint(f float64) string {
	a := new(big.Float).SetPrec(2000).SetFloat64(f)
	b := new(big.Float).SetPrec(2000).SetFloat64(math.Nextafter(f, math.Inf(1)))
	if math.IsInf(math.Nextafter(f, math.Inf(1)), 0) {
		b.SetMantExp(big.NewFloat(1), 1024)
	}
	a.Add(a, b).Quo(a, big.NewFloat(2))
	return a.Text('e', -1)
}

// TestParseFloatRandom compares with strconv on random floats written in many ways, on
// random digit strings and on the halfway points between floats (and next to them).
func TestParseFloatRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 40000
	if testing.Short() {
		n = 4000
	}
	digits := func(k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		if b[0] == '0' && k > 1 {
			b[0] = '1'
		}
		return string(b)
	}
	for i := 0; i < n; i++ {
		var f float64
		switch r.IntN(4) {
		case 0:
			f = math.Float64frombits(r.Uint64())
		case 1:
			f = math.Float64frombits(r.Uint64() >> (1 + r.IntN(20)))
		case 2:
			f = float64(r.IntN(4000)) / 400
		default:
			f = r.Float64() * math.Pow(10, float64(r.IntN(40)-20))
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		for _, prec := range []int{-1, 5, 16, 17, 25} {
			checkFloat(t, strconv.FormatFloat(f, 'e', prec, 64))
		}
		checkFloat(t, strconv.FormatFloat(f, 'g', -1, 64))
		if math.Abs(f) < 1e30 && math.Abs(f) > 1e-30 {
			checkFloat(t, strconv.FormatFloat(f, 'f', -1, 64))
		}
		if i%8 == 0 && f > 0 {
			m := midpoint(f)
			checkFloat(t, m)
			mant, exp, _ := strings.Cut(m, "e")
			for _, d := range []string{"1", "9", "0000000000000000000001"} {
				checkFloat(t, mant+d+"e"+exp)
			}
			if last := mant[len(mant)-1]; last > '0' {
				checkFloat(t, mant[:len(mant)-1]+string(last-1)+"9999e"+exp)
			}
		}
		k := 1 + r.IntN(30)
		if r.IntN(20) == 0 {
			k = 1 + r.IntN(1200)
		}
		s := digits(k)
		if r.IntN(2) == 0 {
			p := r.IntN(k + 1)
			s = s[:p] + "." + s[p:]
			if p == 0 {
				s = "0" + s
			}
			if p == k {
				s += "0"
			}
		}
		e := strconv.Itoa(r.IntN(700) - 350)
		checkFloat(t, s+"e"+e)
		checkFloat(t, "-"+s)
		if i%16 == 0 { // strconv against the exact rational, now and then
			if got, _ := parseFloat([]byte(s + "e" + e)); got != exactFloat(t, s+"e"+e) {
				t.Fatalf("%se%s: %v, exactly %v", s, e, got, exactFloat(t, s+"e"+e))
			}
		}
	}
}

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
		got, ok, big := parseUint([]byte(s))
		if ok != (err == nil) || big != errors.Is(err, strconv.ErrRange) || ok && got != want {
			t.Fatalf("parseUint(%q) = %d, %v, %v; strconv gives %d, %v", s, got, ok, big, want, err)
		}
	}
}

// FuzzParseFloat compares with strconv on every JSON number the fuzzer finds.
func FuzzParseFloat(f *testing.F) {
	for _, s := range floatCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) == 0 || s[0] != '-' && !isDigit(s[0]) {
			return
		}
		sc := scanner{data: []byte(s)}
		if sc.number() != nil || sc.i != len(s) {
			return
		}
		checkFloat(t, s)
	})
}
