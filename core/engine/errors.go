package engine

import "strings"

// Code is an error's code (CONTRACT errors).
type Code string

// The error codes.
const (
	CodeBadNotation    Code = "bad_notation"
	CodeBadRequest     Code = "bad_request"
	CodeOutOfRange     Code = "out_of_range"
	CodeNoLineOfEffect Code = "no_line_of_effect"
	CodeInvalidWall    Code = "invalid_wall"
	CodeNotStraight    Code = "not_straight"
	CodeTooLarge       Code = "too_large"
	// A full attack's rule violations (SPEC §9.8, FullAttack), by fullattack's codes of the same
	// names.
	CodeNoAttackLeft   Code = "no_attack_left"
	CodeHandBusy       Code = "hand_busy"
	CodeNeedsQuickDraw Code = "needs_quick_draw"
	CodeNotRanged      Code = "not_ranged"
	CodeNotDeclared    Code = "not_declared"
)

// An Error is a CONTRACT error: a code, a message for people and, for notation errors, the
// 1-based position in the text (At, 0 when there is none); for a full attack's error about a
// step, the step's 0-based index (At, with Step set); and, when the error is about one field of
// the request, that field's path (Field).
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Field is the path of the request's field the error is about, in the form its message
	// starts with: a top-level name, then .name for an object's member, [i] for an array's
	// element and ["key"] for a map's (tokens[1].x, walls[0].a[1], holding["main"]); empty
	// when the error is about no one field (the whole request, a rule between several). A
	// notation error's message starts with the notation instead, and its Field (template,
	// template.notation or template.text in an evaluate request) is set apart from it.
	Field string `json:"field,omitempty"`
	// At is a notation error's 1-based position, or a full attack's step index (with Step).
	At int `json:"at,omitempty"`
	// Step marks At as a full attack's step index (FullAttack), which is on the wire even when it
	// is 0: wasm/wire writes "at" for it where omitempty would leave out a 0.
	Step bool `json:"-"`
	// Internal marks a failure of aoekit itself (a bug, HTTP 500) rather than of the request.
	// It is not on the wire: there an internal error is a bad_request whose message starts with
	// "internal error: " (wasm/wire.InternalError makes one).
	Internal bool `json:"-"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Rule reports whether the error is a rule violation (HTTP 422) rather than a bad request
// (HTTP 400): out of range, no line of effect, an invalid wall or a crooked line; an illegal
// step of a full attack (no attack left, a busy hand, a draw without Quick Draw, a throw or an
// extra shot of what is not ranged, an undeclared Rapid Shot).
func (e *Error) Rule() bool {
	switch e.Code {
	case CodeOutOfRange, CodeNoLineOfEffect, CodeInvalidWall, CodeNotStraight,
		CodeNoAttackLeft, CodeHandBusy, CodeNeedsQuickDraw, CodeNotRanged, CodeNotDeclared:
		return true
	}
	return false
}

// newError is never inlined: each inlined copy adds to the WebAssembly module (see num.Itoa).
// Its Field is the path msg starts with (FieldOf).
//
//go:noinline
func newError(code Code, msg string) *Error {
	return &Error{Code: code, Message: msg, Field: FieldOf(msg)}
}

// FieldOf is the field path a message starts with, or "": every message about one field of a
// request starts with the field's path, followed by ": ", " is ", " (" or " [" (tokens[1].x:
// …, caster is required …, obstacles (packed): …, origin [9, 9, 0] is 8 squares …). A path is a
// name, then any run of .name, [digits] and ["key"]; the top-level names are the contract's
// request fields, so that a message starting with other words ("the caster has no line of
// effect …", "malformed JSON …") names no field. "request" (the whole request) is no field.
func FieldOf(msg string) string {
	i := 0
	name := func() bool {
		j := i
		for i < len(msg) && (msg[i] >= 'a' && msg[i] <= 'z' || msg[i] >= 'A' && msg[i] <= 'Z' || i > j && msg[i] >= '0' && msg[i] <= '9') {
			i++
		}
		return i > j
	}
	if !name() || !requestField(msg[:i]) {
		return ""
	}
	for i < len(msg) {
		switch {
		case msg[i] == '.' && i+1 < len(msg):
			i++
			if !name() {
				return ""
			}
		case strings.HasPrefix(msg[i:], "[\""):
			j := i + 2
			for j < len(msg) && msg[j] != '"' {
				if msg[j] == '\\' {
					j++
				}
				j++
			}
			if !strings.HasPrefix(msg[min(j, len(msg)):], "\"]") {
				return ""
			}
			i = j + 2
		case msg[i] == '[':
			j := i + 1
			for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
				j++
			}
			if j == i+1 || j == len(msg) || msg[j] != ']' {
				return ""
			}
			i = j + 1
		default:
			rest := msg[i:]
			if strings.HasPrefix(rest, ": ") || strings.HasPrefix(rest, " is ") || strings.HasPrefix(rest, " (") || strings.HasPrefix(rest, " [") {
				return msg[:i]
			}
			return ""
		}
	}
	return ""
}

// requestFields are the top-level fields of every request (Request, MoveRequest, CoverRequest,
// SceneEdit, Board, fullattack.Request): the names FieldOf takes a message's first word for.
// TestRequestFields keeps the list equal to the types' json tags.
var requestFields = [...]string{
	"aim", "applyCover", "attack", "attacker", "bab", "barriers", "bounds", "caster", "clear",
	"cover", "creatureCover", "distance", "feats", "hands", "holding", "kind", "metric", "natural", "noBounds",
	"obstacles", "orientation", "origin", "originSquare", "path", "point", "range", "rapidShot", "remove",
	"resolve", "rules", "source", "steps", "target", "targeting", "template", "tokens", "toward",
	"twoWeapon", "vertical", "walls",
}

func requestField(name string) bool {
	for _, f := range requestFields {
		if f == name {
			return true
		}
	}
	return false
}
