package cover

// A Grade is a cover grade (SPEC §5.5): its wire name, the REF bonus, and whether the target
// is out of reach (TDGS full cover, Draw Steel no line of effect).
type Grade struct {
	Name  string
	Bonus int
	Full  bool
}

// TDGS grades blocked of total segments: f < ¼ none, < ½ partial (+2), < ¾ half (+4), else
// full. No segments is no cover.
func TDGS(blocked, total int) Grade {
	switch {
	case total == 0 || 4*blocked < total:
		return Grade{Name: "none"}
	case 2*blocked < total:
		return Grade{Name: "partial", Bonus: 2}
	case 4*blocked < 3*total:
		return Grade{Name: "half", Bonus: 4}
	}
	return Grade{Name: "full", Full: true}
}

// DrawSteel grades blocked of total segments: f < ½ none, < 1 cover (a bane, no bonus), all
// blocked full (no line of effect). No segments is no cover.
func DrawSteel(blocked, total int) Grade {
	switch {
	case total == 0 || 2*blocked < total:
		return Grade{Name: "none"}
	case blocked < total:
		return Grade{Name: "cover"}
	}
	return Grade{Name: "full", Full: true}
}

// DnD35 grades blocked of total segments on the Ikosa scale of the dnd35 profile (SPEC §5.7,
// seed 004): f = 0 none, f ≤ ¼ partial (+2), f ≤ ¾ cover (+4), f < 1 improved (+8), all
// blocked total (no attack). No segments is no cover.
func DnD35(blocked, total int) Grade {
	switch {
	case total == 0 || blocked <= 0:
		return Grade{Name: "none"}
	case 4*blocked <= total:
		return Grade{Name: "partial", Bonus: 2}
	case 4*blocked <= 3*total:
		return Grade{Name: "cover", Bonus: 4}
	case blocked < total:
		return Grade{Name: "improved", Bonus: 8}
	}
	return Grade{Name: "total", Full: true}
}
