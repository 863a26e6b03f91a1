// Package decimal reads numbers written in decimal, in JSON's syntax, exactly: what the engine
// takes from such a number (an integer, a fill on the 1/400 lattice of SPEC §5.1) comes from
// its digits, never through the nearest float64.
package decimal

import "math/bits"

// maxExp bounds the exponent a Number keeps: past it, every question Scaled answers has the
// same answer, and the sums below cannot overflow.
const maxExp = 1 << 40

// A Number is a decimal number read exactly. Its magnitude is 0.d₁d₂…dₙ × 10^exp with d₁ ≠ 0,
// or zero (n = 0); the digits are read from the text when asked for.
type Number struct {
	Neg  bool   // written with a minus sign (zero too: "-0")
	mant []byte // the text from d₁ to dₙ: digits, perhaps with the decimal point among them
	dot  int    // the index of the point in mant, or -1
	n    int    // significant digits, trailing zeros left out
	exp  int64  // within ±maxExp (clamped)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits returns the index past the digits of t from i.
func digits(t []byte, i int) int {
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	return i
}

// Parse reads text in JSON's number syntax: an optional minus, an integer part (0, or digits
// not starting with 0), an optional fraction (a point and digits) and an optional exponent
// (e or E, an optional sign, digits). ok is false for any other text. Its work is linear in
// the text, whatever the exponent.
func Parse(text []byte) (x Number, ok bool) {
	i := 0
	if i < len(text) && text[i] == '-' {
		x.Neg = true
		i++
	}
	start := i
	switch {
	case i < len(text) && text[i] == '0':
		i++
	case i < len(text) && isDigit(text[i]):
		i = digits(text, i)
	default:
		return Number{}, false
	}
	point, end := i, i // where the point is (or would be) and where the mantissa ends
	if i < len(text) && text[i] == '.' {
		if end = digits(text, i+1); end == i+1 {
			return Number{}, false
		}
		i = end
	}
	var e int64
	if i < len(text) && (text[i] == 'e' || text[i] == 'E') {
		i++
		neg := i < len(text) && text[i] == '-'
		if i < len(text) && (text[i] == '-' || text[i] == '+') {
			i++
		}
		j := digits(text, i)
		if j == i {
			return Number{}, false
		}
		for ; i < j; i++ {
			e = min(e*10+int64(text[i]-'0'), maxExp)
		}
		if neg {
			e = -e
		}
	}
	if i != len(text) {
		return Number{}, false
	}
	first, last := -1, -1 // the first and last non-zero digits
	for k := start; k < end; k++ {
		if c := text[k]; c != '0' && c != '.' {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if first < 0 {
		return x, true // zero
	}
	x.mant = text[first : last+1]
	x.n = len(x.mant)
	x.dot = -1
	if first < point && point < last {
		x.dot = point - first
		x.n--
	}
	// d₁ sits point − first places left of the point, or first − point − 1 zeros right of it.
	lead := int64(point - first)
	if first > point {
		lead++
	}
	x.exp = min(max(lead+e, -maxExp), maxExp)
	return x, true
}

// IsZero reports whether x is zero.
func (x Number) IsZero() bool { return x.n == 0 }

// digit returns dᵢ₊₁, the digit i places after d₁ (0 past dₙ).
func (x Number) digit(i int) uint64 {
	if i >= x.n {
		return 0
	}
	if x.dot >= 0 && i >= x.dot {
		i++
	}
	return uint64(x.mant[i] - '0')
}

// Scaled returns ⌊|x| × 10^k⌋ (k ≥ 0): |x| with k decimals, the others cut off. exact reports
// whether every digit cut off is zero; ok whether the result is below 2^64 (v is 0 when not).
func (x Number) Scaled(k int) (v uint64, exact, ok bool) {
	if x.n == 0 {
		return 0, true, true
	}
	m := x.exp + int64(k) // the digits left of the point once scaled
	if m <= 0 {
		return 0, false, true
	}
	if m > 20 { // at least 10^20
		return 0, false, false
	}
	for i := 0; i < int(m); i++ {
		hi, lo := bits.Mul64(v, 10)
		lo, carry := bits.Add64(lo, x.digit(i), 0)
		if hi != 0 || carry != 0 {
			return 0, false, false
		}
		v = lo
	}
	return v, int64(x.n) <= m, true
}
