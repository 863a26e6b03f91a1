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
