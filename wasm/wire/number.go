package wire

import "math/bits"

// Numbers are read by their decimal value, exactly, never through a float64: integers here,
// with core/decimal for the forms with a fraction or an exponent (1e3, 4.0), and fills by
// engine.ParseFill (SPEC §5.1).

// parseUint reads decimal digits as strconv.ParseUint(s, 10, 64) does: ok is false when s is
// empty, holds another byte or passes 2^64−1.
func parseUint(s []byte) (v uint64, ok bool) {
	if len(s) == 0 {
		return 0, false
	}
	for _, c := range s {
		if !isDigit(c) {
			return 0, false
		}
		hi, lo := bits.Mul64(v, 10)
		lo, carry := bits.Add64(lo, uint64(c-'0'), 0)
		if hi != 0 || carry != 0 {
			return 0, false
		}
		v = lo
	}
	return v, true
}
