package engine

// rng is splitmix64: tiny, fast, and the same on every platform (SPEC §7.4, §8.1).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// d20 rolls 1 … 20 without modulo bias (rejection sampling).
func (r *rng) d20() int {
	const limit = (1<<64 - 1) / 20 * 20
	for {
		if v := r.next(); v < limit {
			return int(v%20) + 1
		}
	}
}

// A dieSource rolls d20s: *rng in the engine, a fixed sequence in tests.
type dieSource interface{ d20() int }

// roll resolves one target (SPEC §7.4): attacker stat a, target defence d, cover bonus c,
// modifiers m, the caster's luck l. A natural 20 hits; a natural 1 misses (luck ≥ 10 rerolls a
// 1 once); otherwise die + (a − (d + c)) + m ≥ 11 hits, and with l < 0 the die must also be
// at least 11 + |l|, while with l > 0 any die above 11 − l hits.
func roll(g dieSource, a, d, c, m, l int) *Roll {
	die := g.d20()
	dice := []int{die}
	if die == 1 && l >= 10 {
		die = g.d20()
		dice = append(dice, die)
	}
	total := die + (a - (d + c)) + m
	var hit bool
	switch die {
	case 20:
		hit = true
	case 1:
		hit = false
	default:
		hit = total >= 11
		if l < 0 && die < 11-l {
			hit = false
		}
		if l > 0 && die > 11-l {
			hit = true
		}
	}
	return &Roll{Dice: dice, Total: total, Defence: d + c, Hit: hit}
}
