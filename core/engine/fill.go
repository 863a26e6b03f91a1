package engine

import (
	"math"
	"strconv"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/decimal"
)

// A fill is rounded to the lattice by its decimal value (SPEC §5.1): to the nearest n/400, a
// tie rounding up (0.03625 is 14.5/400 → 15/400), and to 1/400 at least (a positive fill
// below 1/800 keeps the cell an obstacle). fillUnits is that rule; ParseFill applies it to a
// fill written as text (the wire's doors), units to a float64 (the Go library), through the
// float's shortest decimal, so that a fill gets the same lattice value whichever door it
// comes through: encoding/json and JavaScript write a float64 as that decimal.

// fillUnits returns the fill written as text, a decimal number in JSON's syntax, in 1/400 of
// a cell (1 … 400); ok is false when the text is not a number in (0, 1].
//
// The nearest n/400 to x, ties up, is ⌊400x + ½⌋, which changes only where x passes an odd
// multiple of 1/800 = 125/100000: it is decided by x's first five decimals, F = ⌊100000x⌋,
// and is ⌊400F/100000 + ½⌋ = ⌊(4F + 500)/1000⌋.
func fillUnits(text []byte) (int, bool) {
	x, ok := decimal.Parse(text)
	if !ok {
		return 0, false
	}
	return unitsOf(x)
}

// unitsOf is fillUnits for the decimal x.
func unitsOf(x decimal.Number) (int, bool) {
	if x.Neg || x.IsZero() {
		return 0, false
	}
	n, ok := roundLattice(x, 1) // past 1: not ok
	return max(1, int(n)), ok
}

// ParseFill reads a fill written as text, a decimal number in JSON's syntax, and returns the
// value Obstacle.Fill holds for its lattice value n/400 (SPEC §5.1): float64(n)/400, which
// rounds back to n. A zero (0, -0, 0.0e5) is 0, a full block, as Obstacle.Fill's zero value
// is (and as version 1 of the contract has always read it). ok is false when the text is not
// 0 or a number in (0, 1].
func ParseFill(text []byte) (float64, bool) {
	x, ok := decimal.Parse(text)
	switch {
	case !ok:
		return 0, false
	case x.IsZero():
		return 0, true
	}
	n, ok := unitsOf(x)
	if !ok {
		return 0, false
	}
	return float64(n) / board.Full, true
}

// units is a valid fill (0, a full block, or in (0, 1]) in 1/400 of a cell, rounded by its
// shortest decimal, the one strconv.FormatFloat(f, 'g', -1, 64) writes.
//
// A float64 f that is the float64 nearest some n/400 (n = 1 … 400) is answered at once: the
// shortest decimal of f is n/400 itself. (It has at most as many significant digits as n/400,
// at most 4, so it is a multiple of 10^-6 lying within a float64 step, under 10^-15, of n/400,
// a multiple of 10^-4: they are equal.) Other fills are written out and read.
func units(f float64) int {
	if f == 0 {
		return board.Full
	}
	if n := math.Round(f * board.Full); n/board.Full == f {
		return int(n)
	}
	var buf [32]byte
	n, _ := fillUnits(strconv.AppendFloat(buf[:0], f, 'e', -1, 64))
	return n
}
