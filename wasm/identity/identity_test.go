package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
	"github.com/aoekit/aoekit/wasm/wire"
)

// wireDoor answers an entry through wire, as the browser module and the HTTP API do.
func wireDoor(e entry) (int, []byte) {
	var out []byte
	var err *engine.Error
	switch e.Door {
	case "parse":
		out, err = wire.Parse(e.Body)
	case "evaluate":
		out, err = wire.Evaluate(e.Body)
	case "move":
		out, err = wire.Move(e.Body)
	case "cover":
		out, err = wire.Cover(e.Body)
	case "full-attack":
		out, err = wire.FullAttack(e.Body)
	}
	if err != nil {
		return wire.Status(err), wire.Error(err)
	}
	return 200, out
}

// TestWireMatchesGoDoor: for every request of the corpus, wire's bytes are the Go door's.
func TestWireMatchesGoDoor(t *testing.T) {
	entries, err := loadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		a := goDoor(e)
		if a.Status == 500 {
			t.Errorf("%s: the Go door failed: %s", e.Name, a.Body)
			continue
		}
		status, body := wireDoor(e)
		if status != a.Status || string(body) != a.Body {
			t.Errorf("%s: wire gives %d %s\nGo door gives %d %s", e.Name, status, body, a.Status, a.Body)
		}
	}
}

// TestCorpusCoverage keeps the corpus covering every shape of every rule set, each door, each
// error code and each cover grade, and a full attack's budgets and codes.
func TestCorpusCoverage(t *testing.T) {
	entries, err := loadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		a := goDoor(e)
		seen["door "+e.Door] = true
		// Thin walls (SPEC §5.6): read from the body as sent, since a request whose walls are
		// refused does not decode.
		var sent struct {
			Walls []struct {
				Open bool `json:"open"`
			} `json:"walls"`
		}
		json.Unmarshal(e.Body, &sent)
		walls := len(sent.Walls) > 0
		for _, w := range sent.Walls {
			if w.Open {
				seen["walls open"] = true
			}
		}
		if a.Status != 200 {
			var body struct{ Error engine.Error }
			json.Unmarshal([]byte(a.Body), &body)
			seen["code "+string(body.Error.Code)] = true
			if walls {
				seen["walls code "+string(body.Error.Code)] = true
			}
			if e.Door == "full-attack" {
				seen["full-attack code "+string(body.Error.Code)] = true
				if strings.Contains(a.Body, `"at":0}`) {
					seen["full-attack at 0"] = true
				}
			}
			continue
		}
		if e.Door == "full-attack" {
			req, derr := wire.DecodeFullAttack(e.Body)
			if derr != nil {
				t.Fatal(derr)
			}
			var res fullattack.Result
			if err := json.Unmarshal([]byte(a.Body), &res); err != nil {
				t.Fatal(err)
			}
			feats := map[fullattack.Feat]bool{}
			for _, f := range req.Feats {
				feats[f] = true
			}
			for _, s := range res.Steps {
				switch {
				case s.As == fullattack.AsOff && s.Head == 2:
					seen["full-attack double weapon's second head"] = true
				case s.As == fullattack.AsOff && s.With == fullattack.Unarmed:
					seen["full-attack unarmed off hand"] = true
				case s.As == fullattack.AsOff:
					seen["full-attack off hand"] = true
				case s.As == fullattack.AsExtra && s.Throw:
					seen["full-attack rapid shot thrown"] = true
				case s.As == fullattack.AsExtra:
					seen["full-attack rapid shot projectile"] = true
				case s.As == fullattack.AsNatural && s.Secondary && feats[fullattack.FeatMultiattack]:
					seen["full-attack natural secondary multiattack"] = true
				case s.As == fullattack.AsNatural && s.Secondary:
					seen["full-attack natural secondary"] = true
				case s.As == fullattack.AsNatural:
					seen["full-attack natural primary"] = true
				case s.Draw != "" && len(s.Hands) == 2:
					seen["full-attack two-handed draw"] = true
				}
			}
			continue
		}
		if walls {
			seen["walls "+e.Door] = true
		}
		if e.Door == "move" {
			var res engine.MoveResult
			if err := json.Unmarshal([]byte(a.Body), &res); err != nil {
				t.Fatal(err)
			}
			if res.Collision != nil {
				seen["collision "+string(res.Collision.Kind)] = true
				if res.Collision.Kind == engine.CollisionToken && res.Collision.With == "obstacle" {
					seen["collision token named obstacle"] = true
				}
			}
			continue
		}
		if e.Door == "cover" {
			var res engine.CoverResult
			req, derr := wire.DecodeCover(e.Body)
			if derr != nil {
				t.Fatal(derr)
			}
			if err := json.Unmarshal([]byte(a.Body), &res); err != nil {
				t.Fatal(err)
			}
			rules := req.Rules
			if rules == "" {
				rules = "tdgs"
			}
			seen["attack "+string(req.Attack)] = true
			seen["attack "+string(rules)+"/"+string(res.Grade)] = true
			if req.Attacker.Size != 0 || req.Attacker.SizeName != "" {
				seen["attack multi-cell attacker"] = true
			}
			if req.Attacker.Flying && req.Attacker.Z > 0 {
				seen["attack flying attacker above"] = true
			}
			if req.Target.Prone {
				seen["attack prone target"] = true
			}
			continue
		}
		var res struct {
			engine.Template
			Tpl     *engine.Template `json:"template"`
			Targets []engine.Target  `json:"targets"`
		}
		if err := json.Unmarshal([]byte(a.Body), &res); err != nil {
			t.Fatal(err)
		}
		tpl := res.Tpl
		if e.Door == "parse" {
			tpl = &res.Template
		}
		if tpl != nil {
			seen[e.Door+" "+string(tpl.Rules)+"/"+tpl.Shape] = true
		}
		for _, tg := range res.Targets {
			seen["cover "+string(tpl.Rules)+"/"+string(tg.Cover)] = true
			if tg.Roll != nil {
				seen["roll"] = true
			}
			if tg.Reason != "" {
				seen["reason "+string(tg.Reason)] = true
			}
		}
	}
	var missing []string
	for _, door := range []string{"parse", "evaluate"} {
		for _, s := range []string{"tdgs/circle", "tdgs/cone", "tdgs/line", "tdgs/rectangle", "drawsteel/aura", "drawsteel/burst",
			"drawsteel/cube", "drawsteel/line", "drawsteel/wall", "circle50/circle"} {
			missing = append(missing, door+" "+s)
		}
	}
	for _, c := range []engine.Code{engine.CodeBadNotation, engine.CodeBadRequest, engine.CodeOutOfRange, engine.CodeNoLineOfEffect,
		engine.CodeInvalidWall, engine.CodeNotStraight, engine.CodeTooLarge} {
		missing = append(missing, "code "+string(c))
	}
	// A full attack (SPEC §9): every code of its own, an error at step 0, and each budget.
	for _, c := range []engine.Code{engine.CodeNoAttackLeft, engine.CodeHandBusy, engine.CodeNeedsQuickDraw, engine.CodeNotRanged,
		engine.CodeNotDeclared, engine.CodeBadRequest, engine.CodeTooLarge} {
		missing = append(missing, "full-attack code "+string(c))
	}
	missing = append(missing, "door full-attack", "full-attack at 0", "full-attack off hand", "full-attack unarmed off hand",
		"full-attack double weapon's second head", "full-attack rapid shot thrown", "full-attack rapid shot projectile",
		"full-attack natural primary", "full-attack natural secondary", "full-attack natural secondary multiattack",
		"full-attack two-handed draw")
	missing = append(missing, "door move", "roll", "reason cover", "reason targeting", "reason barrier",
		"cover tdgs/none", "cover tdgs/partial", "cover tdgs/half", "cover tdgs/full", "cover drawsteel/cover",
		"door cover", "attack melee", "attack reach", "attack ranged", "attack tdgs/none", "attack tdgs/partial",
		"attack drawsteel/cover", "attack drawsteel/full", "attack dnd35/none", "attack dnd35/partial", "attack dnd35/cover",
		"attack multi-cell attacker", "attack flying attacker above", "attack prone target",
		"walls evaluate", "walls move", "walls cover", "walls open", "walls code bad_request", "walls code too_large",
		"collision obstacle", "collision wall", "collision token", "collision edge", "collision token named obstacle")
	for _, m := range missing {
		if !seen[m] {
			t.Errorf("the corpus has no %s", m)
		}
	}
}

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	if err := write(&b, []answer{{"a", 200, `{"x":"<&>"}`}, {"b", 400, `{}`}}); err != nil {
		t.Fatal(err)
	}
	want := "[\n" + `{"name":"a","status":200,"body":"{\"x\":\"<&>\"}"}` + ",\n" + `{"name":"b","status":400,"body":"{}"}` + "\n]\n"
	if b.String() != want {
		t.Errorf("got %s\nwant %s", b.String(), want)
	}
	var back []answer
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back) != 2 || !strings.Contains(back[0].Body, "<&>") {
		t.Errorf("does not read back: %v %v", back, err)
	}
}
