package engine

import (
	"strings"
	"testing"
)

// Messages that name a token's id name a long one by its length (num.Quote), through Evaluate
// and a scene alike: a message never echoes a request's long text. Each message is held to a
// few hundred bytes for ids of 200 000.
func TestMessagesNameLongIDsByLength(t *testing.T) {
	long := strings.Repeat("é", 100000)
	check := func(what string, err error, field string) {
		t.Helper()
		e, ok := err.(*Error)
		if !ok || e.Code != CodeBadRequest || e.Field != field || len(e.Message) > 200 || !strings.Contains(e.Message, "a text of 200000 bytes") {
			t.Errorf("%s: %.300v; want a short bad_request about %s naming the id's length", what, err, field)
		}
	}
	tok := func(x int) Token { return Token{ID: long, X: x} }
	_, err := Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Tokens: []Token{tok(0), tok(1)}})
	check("Evaluate, two tokens", err, "tokens[1].id")
	caster := tok(5)
	_, err = Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Caster: &caster, Tokens: []Token{tok(0)}})
	check("Evaluate, the caster's", err, "tokens[0].id")

	_, err = NewScene(&Board{Tokens: []Token{tok(0), tok(1)}})
	check("NewScene, two tokens", err, "tokens[1].id")
	s, err := NewScene(&Board{Tokens: []Token{tok(0)}})
	if err != nil {
		t.Fatal(err)
	}
	check("Update, two tokens", s.Update(&SceneEdit{Tokens: []Token{tok(2), tok(3)}}), "tokens[1].id")
	_, err = s.Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Caster: &caster})
	check("a scene's Evaluate, the caster's", err, "tokens[0].id")
}
