package wire

import (
	"math"
	"math/bits"
)

// The number readers below give what strconv.ParseFloat(s, 64) and strconv.ParseUint(s, 10, 64)
// give for a JSON number (the tests compare them on many inputs), without linking them: they
// cost the browser module some 3 KB more brotli than these readers, much of it for forms JSON
// has no use for (hexadecimal, 32-bit floats, "inf") and for the Eisel-Lemire tables.
//
// One difference, on purpose: given more than 800 significant digits left of the decimal
// point, strconv.ParseFloat (Go 1.26) may forget the digits past the 800th when it falls back
// to its slow path, and reads "1" followed by 800 zeros and "e-800" as 0.1; parseFloat reads 1.
// No JSON encoder writes such numbers; the tests check parseFloat against exact rationals there.

// maxDigits is the most significant digits parseFloat keeps; past them it only notes whether
// a dropped digit was not zero. Every halfway point between two float64s is a decimal of at
// most 767 significant digits, so that note is all the rounding needs (strconv does the same).
const maxDigits = 800

// pow10 holds the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
	1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat returns the float64 nearest to the JSON number tok (ties to even), and whether
// it overflowed to ±Inf, where strconv.ParseFloat reports ErrRange; a number too small for a
// float64 is 0 (or a subnormal), as there. tok must be a valid JSON number (scan checked it).
func parseFloat(tok []byte) (float64, bool) {
	neg := tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	// The value is digits[:nd] × 10^exp, a little more when trunc.
	var digits [maxDigits]byte
	nd, exp, trunc, dot := 0, 0, false, false
	i := 0
	for ; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c == '.':
			dot = true
			continue
		case !isDigit(c):
		case nd == 0 && c == '0': // a leading zero
			if dot {
				exp--
			}
			continue
		case nd < maxDigits:
			digits[nd] = c - '0'
			nd++
			if dot {
				exp--
			}
			continue
		default:
			trunc = trunc || c != '0'
			if !dot {
				exp++
			}
			continue
		}
		break // e or E
	}
	if i < len(tok) { // the exponent, which stops growing past 10000 as in strconv
		i++
		eneg := tok[i] == '-'
		if tok[i] == '-' || tok[i] == '+' {
			i++
		}
		e := 0
		for ; i < len(tok); i++ {
			if e < 10000 {
				e = e*10 + int(tok[i]-'0')
			}
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	f, inf := 0.0, false
	switch {
	case nd == 0 || nd+exp <= -324: // below 1e-324, under half the smallest subnormal
	case nd-1+exp >= 309: // at least 1e309
		f, inf = math.Inf(1), true
	case nd <= 15 && !trunc && exp >= -22 && exp <= 22: // Clinger: two exact operands, one rounding
		var n uint64
		for _, d := range digits[:nd] {
			n = n*10 + uint64(d)
		}
		f = float64(n)
		if exp >= 0 {
			f *= pow10[exp]
		} else {
			f /= pow10[-exp]
		}
	default:
		f, inf = bigFloat(digits[:nd], exp, trunc)
	}
	if neg {
		f = -f
	}
	return f, inf
}

// bigFloat returns the float64 nearest to digits × 10^exp (plus a little when trunc) and
// whether it overflowed, from the quotient of two big integers: x = F / G × 2^exp with
// F = digits × 5^exp and G = 1 when exp ≥ 0, F = digits and G = 5^−exp otherwise.
func bigFloat(digits []byte, exp int, trunc bool) (float64, bool) {
	var f nat
	for len(digits) > 0 { // nine digits at a time
		k := min(len(digits), 9)
		m, a := uint32(1), uint32(0)
		for _, d := range digits[:k] {
			m, a = m*10, a*10+uint32(d)
		}
		f = f.mulAdd(m, a)
		digits = digits[k:]
	}
	g := nat{1}
	if exp >= 0 {
		f = f.mulPow5(exp)
	} else {
		g = g.mulPow5(-exp)
	}
	// q = ⌊F × 2^k / G⌋ lies in (2^56, 2^58): 57 or 58 bits, room for rounding.
	k := 57 - f.bitLen() + g.bitLen()
	if k > 0 {
		f = f.shl(k)
	} else {
		g = g.shl(-k)
	}
	g = g.shl(58)
	var q uint64
	for b := 58; b >= 0; b-- { // long division, a bit at a time
		if f.cmp(g) >= 0 {
			f = f.sub(g)
			q |= 1 << b
		}
		g = g.shr1()
	}
	sticky := trunc || len(f.norm()) > 0

	// The value is (q + a fraction, not 0 when sticky) × 2^(exp−k); its leading bit is worth
	// 2^e2. A float64 keeps 53 bits of it, fewer below 2^−1022 (subnormals).
	n := bits.Len64(q)
	e2 := n - 1 + exp - k
	if e2 > 1023 {
		return math.Inf(1), true
	}
	drop := n - 53
	if e2 < -1022 {
		drop += -1022 - e2
	}
	if drop > 60 { // far below the smallest subnormal
		return 0, false
	}
	mant, rest, half := q>>drop, q&(1<<drop-1), uint64(1)<<(drop-1)
	if rest > half || rest == half && (sticky || mant&1 == 1) {
		mant++
	}
	if e2 < -1022 { // a subnormal, or 2^−1022 when rounding carried into bit 52
		return math.Float64frombits(mant), false
	}
	if mant == 1<<53 {
		mant >>= 1
		e2++
	}
	if e2 > 1023 {
		return math.Inf(1), true
	}
	return math.Float64frombits(uint64(e2+1023)<<52 | mant&(1<<52-1)), false
}

// parseUint reads decimal digits as strconv.ParseUint(s, 10, 64) does: ok is false when s is
// empty or holds another byte (a syntax error), and big reports that the digits before any
// such byte already pass 2^64−1 (ErrRange, which ParseUint reports as soon as it sees it).
func parseUint(s []byte) (v uint64, ok, big bool) {
	if len(s) == 0 {
		return 0, false, false
	}
	for _, c := range s {
		if !isDigit(c) {
			return 0, false, false
		}
		hi, lo := bits.Mul64(v, 10)
		lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
		if hi != 0 || carry != 0 {
			return 0, false, true
		}
		v = lo
	}
	return v, true, false
}

// A nat is a natural number, little-endian 32-bit limbs, for bigFloat.
type nat []uint32

// norm drops leading zero limbs.
func (x nat) norm() nat {
	for len(x) > 0 && x[len(x)-1] == 0 {
		x = x[:len(x)-1]
	}
	return x
}

// mulAdd returns x × m + a.
func (x nat) mulAdd(m, a uint32) nat {
	c := uint64(a)
	for i, v := range x {
		c += uint64(v) * uint64(m)
		x[i] = uint32(c)
		c >>= 32
	}
	if c != 0 {
		x = append(x, uint32(c))
	}
	return x
}

// mulPow5 returns x × 5^n.
func (x nat) mulPow5(n int) nat {
	for ; n >= 13; n -= 13 {
		x = x.mulAdd(1220703125, 0) // 5^13
	}
	for ; n > 0; n-- {
		x = x.mulAdd(5, 0)
	}
	return x
}

func (x nat) bitLen() int {
	x = x.norm()
	if len(x) == 0 {
		return 0
	}
	return 32*(len(x)-1) + bits.Len32(x[len(x)-1])
}

// shl returns x × 2^n.
func (x nat) shl(n int) nat {
	z := make(nat, len(x)+n/32+1)
	w, s := n/32, uint(n%32)
	for i, v := range x {
		z[i+w] |= v << s
		if s > 0 {
			z[i+w+1] = v >> (32 - s)
		}
	}
	return z.norm()
}

// shr1 returns x / 2, rounded down.
func (x nat) shr1() nat {
	for i := range x {
		x[i] >>= 1
		if i+1 < len(x) {
			x[i] |= x[i+1] << 31
		}
	}
	return x.norm()
}

func (x nat) cmp(y nat) int {
	x, y = x.norm(), y.norm()
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != y[i] {
			if x[i] < y[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// sub returns x − y, for x ≥ y.
func (x nat) sub(y nat) nat {
	var b uint32
	for i := range x {
		var yi uint32
		if i < len(y) {
			yi = y[i]
		}
		x[i], b = bits.Sub32(x[i], yi, b)
	}
	return x.norm()
}
