package wire

import (
	"math"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
)

// The engine's entry points, replaced in tests to check that panics are recovered.
var (
	engineParse      = engine.ParseRules
	engineEvaluate   = engine.EvaluateContext
	engineMove       = engine.MoveContext
	engineCover      = engine.Cover
	engineFullAttack = engine.FullAttack
)

// Every exported function turns a panic into an internal error: nothing panics out of wire.
// Each recovers once, at its top (guard, or decode for the Decode functions), and calls only
// unexported code that does not: a call through a door meets the door's recover and one of
// wire's, never a stack of them.

// internalPrefix starts the message of every internal error, on the wire (see InternalError).
const internalPrefix = "internal error: "

// Internal reports whether err is an internal error (a bug, reported as HTTP 500) rather than
// a fault in the request: whether its Internal flag is set.
func Internal(err *engine.Error) bool {
	return err != nil && err.Internal
}

// InternalError is a bug, flagged Internal. On the wire it is what clients have always been
// sent for one: a bad_request whose message starts with "internal error: ".
func InternalError(msg string) *engine.Error {
	return &engine.Error{Code: engine.CodeBadRequest, Message: internalPrefix + msg, Internal: true}
}

// Recovered turns a recovered panic value into an internal error, for doors that guard their
// own code as wire guards its functions.
func Recovered(r any) *engine.Error {
	switch v := r.(type) {
	case error:
		return InternalError(v.Error())
	case string:
		return InternalError(v)
	}
	return InternalError("panic")
}

// guard recovers a panic into *err, clearing *out.
func guard(out *[]byte, err **engine.Error) {
	if r := recover(); r != nil {
		*out = nil
		*err = Recovered(r)
	}
}

// asError turns an engine error into an *engine.Error (bad_request when it is not one). The
// engine's errors are all *engine.Error, never wrapped: a type assertion, not errors.As, which
// would link internal/reflectlite into the browser module.
func asError(err error) *engine.Error {
	if e, ok := err.(*engine.Error); ok && e != nil {
		return e
	}
	return &engine.Error{Code: engine.CodeBadRequest, Message: err.Error()}
}

// Status is the HTTP status of an answer: 200 without an error, 422 for a rule violation
// (engine.Error.Rule), 500 for an internal error and 400 for any other error.
func Status(err *engine.Error) int {
	switch {
	case err == nil:
		return 200
	case Internal(err):
		return 500
	case err.Rule():
		return 422
	}
	return 400
}

// decode is read for the exported Decode functions: a panic becomes an internal error.
func decode(body []byte, req any) (err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Recovered(r)
		}
	}()
	return read(body, req)
}

// read reads body into req: a *engine.Request, a *engine.MoveRequest, a *engine.CoverRequest,
// a *fullattack.Request, a *engine.Board, a *engine.SceneEdit or a *parseRequest (the text and rules of a parse
// body). The functions that answer a body call it from inside their own recover.
func read(body []byte, req any) *engine.Error {
	d, err := newDecoder(body)
	if err != nil {
		return err
	}
	switch req := req.(type) {
	case *engine.Request:
		err = d.request(req)
	case *engine.MoveRequest:
		err = d.moveRequest(req)
	case *engine.CoverRequest:
		err = d.coverRequest(req)
	case *fullattack.Request:
		err = d.fullAttackRequest(req)
	case *engine.Board:
		err = d.board(req)
	case *engine.SceneEdit:
		err = d.sceneEdit(req)
	case *parseRequest:
		err = d.parseBody(req)
	}
	return err
}

// DecodeRequest reads an evaluate request (CONTRACT evaluate). Unknown fields are ignored and
// null fields are absent ones; malformed JSON is an error naming the byte offset, a value of the
// wrong type one naming its path ("tokens[3].x: expected an integer, got a string").
func DecodeRequest(body []byte) (*engine.Request, *engine.Error) {
	req := new(engine.Request)
	if err := decode(body, req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeMove reads a forced-movement request (CONTRACT move), as DecodeRequest does.
func DecodeMove(body []byte) (*engine.MoveRequest, *engine.Error) {
	req := new(engine.MoveRequest)
	if err := decode(body, req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeCover reads an attack-cover request (CONTRACT cover), as DecodeRequest does.
func DecodeCover(body []byte) (*engine.CoverRequest, *engine.Error) {
	req := new(engine.CoverRequest)
	if err := decode(body, req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeFullAttack reads a full-attack request (CONTRACT fullAttack, SPEC §9), as DecodeRequest
// does. A null item in "holding" is an absent one: the hand is empty.
func DecodeFullAttack(body []byte) (*fullattack.Request, *engine.Error) {
	req := new(fullattack.Request)
	if err := decode(body, req); err != nil {
		return nil, err
	}
	return req, nil
}

// DecodeParse reads a parse body, {"text": "…", "rules": "…"}, and returns the text and the
// rules ("" when absent).
func DecodeParse(body []byte) (text string, rules engine.Rules, _ *engine.Error) {
	var p parseRequest
	if err := decode(body, &p); err != nil {
		return "", "", err
	}
	return p.text, engine.Rules(p.rules), nil
}

// encode returns the JSON of v — a *engine.Result, *engine.Template, *engine.MoveResult,
// *engine.CoverResult, *fullattack.Result, *engine.VersionInfo or *engine.Error — from a buffer
// as large as the answer is likely to be; nil when v holds a number JSON cannot carry. A panic
// becomes an internal error.
func encode(v any) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	e := &encoder{b: make([]byte, 0, answerSize(v)), ok: true}
	switch v := v.(type) {
	case *engine.Result:
		e.result(v)
	case *engine.Template:
		e.template("", v)
	case *engine.MoveResult:
		e.moveResult(v)
	case *engine.CoverResult:
		e.coverResult(v)
	case *fullattack.Result:
		e.fullAttackResult(v)
	case *engine.VersionInfo:
		e.versionInfo(v)
	case *engine.Error:
		e.raw(`{"error":`) // {"error":{"code","message","field"?,"at"?}}
		e.error(v)
		if v.Step && v.At == 0 { // a full attack's step 0: "at" is on the wire, where omitempty leaves out a 0
			e.b = append(e.b[:len(e.b)-1], `,"at":0}`...)
		}
		e.raw("}")
	}
	if !e.ok {
		return nil, nil
	}
	return e.b, nil
}

// answerSize is the room encode makes for v's JSON, so that it does not grow the answer as it
// writes it: an evaluate's or a cover's answer is sized from its cells, its lines and its
// strings, at least their length (TestAnswerSizedOnce). 2^20 cells far from the origin write
// 26 MB, which grown from a guess of 16 bytes a cell allocated 90 MB on the way: the memory of
// a worker, which WebAssembly never gives back.
func answerSize(v any) int {
	size := 128
	switch v := v.(type) {
	case *engine.Result:
		// Its template's and its own other fields: a dozen numbers of up to 20 digits, their
		// keys, and these strings.
		tpl := &v.Template
		size = 768 + strRoom(tpl.Text) + strRoom(tpl.Notation) + strRoom(tpl.Direction) + strRoom(tpl.Orientation) + strRoom(v.Direction) +
			cellsLen(v.Cells)
		for i := range v.Targets {
			t := &v.Targets[i]
			size += 160 + strRoom(t.ID) + linesRoom(t.Lines)
			if t.Roll != nil {
				size += 100 + 21*len(t.Roll.Dice)
			}
		}
	case *engine.MoveResult:
		size = 64 + 16*len(v.Path)
	case *engine.CoverResult:
		size = 256 + linesRoom(v.Lines)
	case *fullattack.Result:
		size = 32 + 160*(len(v.Steps)+len(v.Next))
	case *engine.Error:
		size = 64 + len(v.Message)
	}
	return size
}

// strRoom is at least the length of s written as a JSON string: its quotes, and 6 bytes for
// each byte that may be escaped (\u00XX, \ufffd for a byte that is not UTF-8).
func strRoom(s string) int {
	n := 2 + len(s)
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x80 || b == '"' || b == '\\' {
			n += 5
		}
	}
	return n
}

// linesRoom is at least the length of lines written as a JSON list: each number as wide as a
// point of the 1/400 lattice is (appendFloat), or 25 bytes for any other float
// ("-0.0000043120534607028475").
func linesRoom(lines []engine.Line) int {
	n := 2
	for i := range lines {
		n += len(`{"from":[,,],"to":[,,],"blocked":false},`)
		for _, p := range [2]*[3]float64{&lines[i].From, &lines[i].To} {
			for _, f := range p {
				n += floatRoom(f)
			}
		}
	}
	return n
}

// floatRoom is at least the length appendFloat writes f in.
func floatRoom(f float64) int {
	if k := math.Round(f * 400); math.Abs(k) < 1<<40 && k/400 == f {
		return 1 + decimalWidth(int64(math.Abs(k))/400) + 5 // sign, whole part, "." and 4 places
	}
	return 25
}

// cellsLen is the length of cells written as a JSON list: "[x,y,z]," each.
func cellsLen(cells [][3]int32) int {
	n := 0
	for _, c := range cells {
		n += 5 + decimalWidth(int64(c[0])) + decimalWidth(int64(c[1])) + decimalWidth(int64(c[2]))
	}
	return n
}

// decimalWidth is how many bytes v takes in decimal, with its sign.
func decimalWidth(v int64) int {
	n, u := 0, uint64(v)
	if v < 0 {
		n, u = 1, -u
	}
	switch {
	case u < 10:
		return n + 1
	case u < 100:
		return n + 2
	case u < 1000:
		return n + 3
	case u < 10000:
		return n + 4
	case u < 100000:
		return n + 5
	}
	for n += 6; u >= 1000000; u /= 10 {
		n++
	}
	return n
}

// answer is encode for a door: encode's error, or an internal error when v holds a number
// JSON cannot carry (NaN, ±Inf).
func answer(v any) ([]byte, *engine.Error) {
	out, err := encode(v)
	if err == nil && out == nil {
		err = InternalError("the result holds a number JSON cannot carry (NaN or infinity)")
	}
	return out, err
}

// EncodeResult returns the JSON of r, as encoding/json gives it; nil when r is nil or holds a
// number JSON cannot carry (NaN, ±Inf), which encoding/json refuses too.
func EncodeResult(r *engine.Result) []byte {
	if r == nil {
		return nil
	}
	out, _ := encode(r)
	return out
}

// EncodeTemplate returns the JSON of t, as encoding/json gives it.
func EncodeTemplate(t *engine.Template) []byte {
	if t == nil {
		return []byte("null")
	}
	out, _ := encode(t)
	return out
}

// AppendNumber appends the JSON of a finite f, as encoding/json writes a float64 (an origin
// point's coordinate: 6, 5.5, 0.5).
func AppendNumber(dst []byte, f float64) []byte {
	out, _ := appendFloat(dst, f)
	return out
}

// EncodeMoveResult returns the JSON of m, as encoding/json gives it.
func EncodeMoveResult(m *engine.MoveResult) []byte {
	if m == nil {
		return []byte("null")
	}
	out, _ := encode(m)
	return out
}

// Parse answers a parse body, {"text": "…"}, with the template's JSON.
func Parse(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	var p parseRequest
	if err := read(body, &p); err != nil {
		return nil, err
	}
	t, perr := engineParse(p.text, engine.Rules(p.rules))
	if perr != nil {
		return nil, asError(perr)
	}
	return answer(&t)
}

// EvaluateResult decodes an evaluate request and evaluates it: the result, never nil, or the
// error Evaluate would give (a panic becomes an internal error). Doors with their own encoding
// of the result (the browser module's packed cells) use it to answer as Evaluate does.
func EvaluateResult(body []byte) (*engine.Result, *engine.Error) {
	return evaluateResult(nil, body, nil)
}

// EvaluatePacked is EvaluateResult for a request whose obstacles come packed (UnpackObstacles),
// after any its JSON holds: the browser module's evaluate, to which the loader hands a board's
// obstacles so when each reads the same either way (web/internal/wasm.js packRequest).
func EvaluatePacked(body, packed []byte) (*engine.Result, *engine.Error) {
	return evaluateResult(nil, body, packed)
}

// evaluateResult is EvaluatePacked watching ctx (nil: never cancelled).
func evaluateResult(ctx engine.Context, body, packed []byte) (res *engine.Result, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, Recovered(r)
		}
	}()
	req := new(engine.Request)
	if err := read(body, req); err != nil {
		return nil, err
	}
	if req.Obstacles, err = withPacked(req.Obstacles, packed); err != nil {
		return nil, err
	}
	res, eerr := engineEvaluate(ctx, req)
	if eerr != nil {
		return nil, asError(eerr)
	}
	if res == nil {
		return nil, InternalError("evaluate returned no result")
	}
	return res, nil
}

// Evaluate answers an evaluate request with the result's JSON. (EvaluateResult and encode
// recover their panics: nothing else here can panic.)
func Evaluate(body []byte) ([]byte, *engine.Error) { return EvaluateContext(nil, body) }

// EvaluateContext is Evaluate watching ctx (a context.Context, or nil: never), as
// engine.EvaluateContext does: when ctx is done the evaluation stops with a too_large error
// whose message starts "cancelled: ". The HTTP door passes its request's context.
func EvaluateContext(ctx engine.Context, body []byte) ([]byte, *engine.Error) {
	res, err := evaluateResult(ctx, body, nil)
	if err != nil {
		return nil, err
	}
	return answer(res)
}

// Move answers a forced-movement request with the result's JSON.
func Move(body []byte) ([]byte, *engine.Error) { return MoveContext(nil, body) }

// MoveContext is Move watching ctx (a context.Context, or nil: never), as
// engine.MoveContext does.
func MoveContext(ctx engine.Context, body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	req := new(engine.MoveRequest)
	if err := read(body, req); err != nil {
		return nil, err
	}
	res, merr := engineMove(ctx, req)
	if merr != nil {
		return nil, asError(merr)
	}
	if res == nil {
		return nil, InternalError("move returned no result")
	}
	return answer(res)
}

// Cover answers an attack-cover request (CONTRACT cover, SPEC §5.7) with the result's JSON. Its
// work is bounded by the request's sizes (SPEC §8.3), well under a second: it takes no context.
func Cover(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	req := new(engine.CoverRequest)
	if err := read(body, req); err != nil {
		return nil, err
	}
	res, cerr := engineCover(req)
	if cerr != nil {
		return nil, asError(cerr)
	}
	if res == nil {
		return nil, InternalError("cover returned no result")
	}
	return answer(res)
}

// FullAttack answers a full-attack request (CONTRACT fullAttack, SPEC §9) with the result's
// JSON. Its work is bounded by fullattack's limits on the request: it takes no context.
func FullAttack(body []byte) (out []byte, err *engine.Error) {
	defer guard(&out, &err)
	req := new(fullattack.Request)
	if err := read(body, req); err != nil {
		return nil, err
	}
	res, ferr := engineFullAttack(req)
	if ferr != nil {
		return nil, asError(ferr)
	}
	if res == nil {
		return nil, InternalError("full attack returned no result")
	}
	return answer(res)
}

// Version returns the JSON of engine.About().
func Version() []byte {
	v := engine.About()
	out, err := encode(&v)
	if err != nil {
		return Error(err)
	}
	return out
}

// Error returns {"error": {"code", "message", "field"?, "at"?}} for err; a nil err is an internal error.
// "at" is there when At is not 0, or when Step marks it as a full attack's step index.
func Error(err *engine.Error) []byte {
	if err == nil {
		err = InternalError("no error to report")
	}
	out, perr := encode(err)
	if perr != nil {
		return []byte(`{"error":{"code":"bad_request","message":"` + internalPrefix + `encoding an error"}}`)
	}
	return out
}
