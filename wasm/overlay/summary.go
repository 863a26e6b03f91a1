package main

import (
	"strconv"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// summary is what draw answers: the result without its cells and lines, as JSON text —
//
//	{"count": 25, "targets": [{"id": "g1", "inArea": true, "affected": true, "cover": "none", "bonus": 0}, …]}
//
// with each target's reason when it has one (CONTRACT evaluate's fields, same names, same
// values). With details (view.details), the rest of the answer but its cells and lines too:
// its template, direction (when it has one), origin and originVisible, and each target's
// blocked, total (how many lines it has) and roll (when it has one). Written by hand (its
// strings by wire's writer): the module links neither encoding/json nor reflect.
func summary(res *engine.Result, details bool) []byte {
	b := make([]byte, 0, 32+64*len(res.Targets))
	b = append(b, `{"count":`...)
	b = strconv.AppendInt(b, int64(res.Count), 10)
	if details {
		b = append(b, `,"template":`...)
		b = append(b, wire.EncodeTemplate(&res.Template)...)
		if res.Direction != "" {
			b = append(b, `,"direction":`...)
			b = wire.AppendString(b, res.Direction)
		}
		b = append(b, `,"origin":{"x":`...)
		b = wire.AppendNumber(b, res.Origin.X)
		b = append(b, `,"y":`...)
		b = wire.AppendNumber(b, res.Origin.Y)
		b = append(b, `,"z":`...)
		b = wire.AppendNumber(b, res.Origin.Z)
		b = append(b, `},"originVisible":`...)
		b = strconv.AppendBool(b, res.OriginVisible)
	}
	b = append(b, `,"targets":[`...)
	for i := range res.Targets {
		t := &res.Targets[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = wire.AppendString(b, t.ID)
		b = append(b, `,"inArea":`...)
		b = strconv.AppendBool(b, t.InArea)
		b = append(b, `,"affected":`...)
		b = strconv.AppendBool(b, t.Affected)
		if t.Reason != "" {
			b = append(b, `,"reason":`...)
			b = wire.AppendString(b, string(t.Reason))
		}
		b = append(b, `,"cover":`...)
		b = wire.AppendString(b, string(t.Cover))
		b = append(b, `,"bonus":`...)
		b = strconv.AppendInt(b, int64(t.Bonus), 10)
		if details {
			b = append(b, `,"blocked":`...)
			b = strconv.AppendInt(b, int64(t.Blocked), 10)
			b = append(b, `,"total":`...)
			b = strconv.AppendInt(b, int64(len(t.Lines)), 10)
			if r := t.Roll; r != nil {
				b = append(b, `,"roll":{"dice":[`...)
				for i, d := range r.Dice {
					if i > 0 {
						b = append(b, ',')
					}
					b = strconv.AppendInt(b, int64(d), 10)
				}
				b = append(b, `],"total":`...)
				b = strconv.AppendInt(b, int64(r.Total), 10)
				b = append(b, `,"defence":`...)
				b = strconv.AppendInt(b, int64(r.Defence), 10)
				b = append(b, `,"hit":`...)
				b = strconv.AppendBool(b, r.Hit)
				b = append(b, '}')
			}
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}
