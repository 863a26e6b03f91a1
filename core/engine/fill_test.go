package engine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// latticeOf is SPEC §5.1 for the decimal text s, from its exact value: the nearest n/400, a
// tie rounding up, at least 1/400; ok is false when the value is not in (0, 1].
func latticeOf(t *testing.T, s string) (int, bool) {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		t.Fatalf("big.Rat(%q)", s)
	}
	if r.Sign() <= 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
		return 0, false
	}
	x := new(big.Rat).Add(new(big.Rat).Mul(r, big.NewRat(400, 1)), big.NewRat(1, 2))
	return max(1, int(new(big.Int).Quo(x.Num(), x.Denom()).Int64())), true
}

// SPEC §5.1: every decimal of up to five places in (0, 1], k/100000, rounds to the nearest
// 1/400 by its value, a tie up: ⌊(800k + 100000)/200000⌋ (at least 1), whether written short
// (0.03625), with trailing zeros (0.0362500) or with an exponent (3625e-5); and a Go caller's
// float64 literal of it rounds the same (units).
func TestFill_5_1_FiveDecimalPlaces(t *testing.T) {
	for k := 1; k <= 100000; k++ {
		want := max(1, (800*k+100000)/200000)
		short := "0." + strings.TrimRight(fmt.Sprintf("%05d", k), "0")
		if k == 100000 {
			short = "1"
		}
		for _, s := range []string{short, fmt.Sprintf("%d.%05d00", k/100000, k%100000), fmt.Sprintf("%de-5", k)} {
			if n, ok := fillUnits([]byte(s)); !ok || n != want {
				t.Fatalf("fill %s: %d, %v; want %d/400", s, n, ok, want)
			}
		}
		f, _ := strconv.ParseFloat(short, 64)
		if n := units(f); n != want {
			t.Fatalf("Fill: %v (float64): %d/400, want %d/400", f, n, want)
		}
	}
	// The example of SPEC §5.1, which float arithmetic gets wrong (0.03625 × 400 is
	// 14.499999999999998 in float64).
	if n := units(0.03625); n != 15 {
		t.Errorf("Fill: 0.03625: %d/400, want 15/400", n)
	}
}

// units rounds a float64 by its shortest decimal (Obstacle's doc), as the JSON text
// encoding/json writes for it is rounded: compared with the exact value of that decimal on
// random floats of every size in (0, 1], and each lattice value n/400 comes back as n.
func TestUnits_5_1_FloatsByTheirShortestDecimal(t *testing.T) {
	for n := 1; n <= 400; n++ {
		if got := units(float64(n) / 400); got != n {
			t.Fatalf("units(%d/400) = %d", n, got)
		}
		if f, ok := ParseFill([]byte(strconv.Itoa(n*25) + "e-4")); !ok || f != float64(n)/400 {
			t.Fatalf("ParseFill(%de-4) = %v, %v; want %d/400", n*25, f, ok, n)
		}
	}
	r := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < 200000; i++ {
		var f float64
		switch i % 4 {
		case 0:
			f = math.Nextafter(r.Float64(), 2)
		case 1:
			f = math.Ldexp(1+r.Float64(), -1-r.IntN(1075))
		case 2: // next to a tie
			f = math.Nextafter(float64(2*r.IntN(400)+1)/800, float64(r.IntN(2)))
		default:
			f = float64(1+r.IntN(100000)) / 100000
		}
		if f <= 0 || f > 1 {
			continue
		}
		want, _ := latticeOf(t, strconv.FormatFloat(f, 'g', -1, 64))
		if got := units(f); got != want {
			t.Fatalf("units(%v) = %d, want %d", f, got, want)
		}
	}
	if n := units(0); n != 400 {
		t.Errorf("units(0) = %d; 0 is a full block", n)
	}
}

// SPEC §5.1, §1.6: text that is not a number in (0, 1] is no fill, but for 0, a full block (as
// Obstacle.Fill's zero value); ParseFill agrees with the exact value on the rest.
func TestParseFill_5_1_Range(t *testing.T) {
	for _, s := range []string{"0", "-0", "0.0", "0e5", "-0e-99"} {
		if f, ok := ParseFill([]byte(s)); !ok || f != 0 {
			t.Errorf("ParseFill(%q) = %v, %v; want 0, a full block", s, f, ok)
		}
	}
	for _, s := range []string{"-0.5", "-1", "1.00001", "1.0000000000000000000000001", "2",
		"10e-1e", "1e1", "1e999999999999999999", "NaN", "Infinity", "", "0x1", ".5", "1.", "+0.5", "05", " 0.5", "0,5"} {
		if f, ok := ParseFill([]byte(s)); ok {
			t.Errorf("ParseFill(%q) = %v, accepted", s, f)
		}
	}
	for _, s := range []string{"1", "1.0", "1e0", "0.1e1", "0.99875", "0.9987499999999999999999", "0.00125",
		"0.0012499", "0.5", "5E-1", "0.03625", "0.036249999999999999999999", "1e-300", "1e-999999999999999"} {
		f, ok := ParseFill([]byte(s))
		want := 1 // past big.Rat's reach: the smallest fill
		if !strings.Contains(s, "e-999") {
			want, _ = latticeOf(t, s)
		}
		if !ok || f != float64(want)/400 {
			t.Errorf("ParseFill(%q) = %v, %v; want %d/400", s, f, ok, want)
		}
	}
}
