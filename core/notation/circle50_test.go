package notation

import (
	"testing"

	"github.com/aoekit/aoekit/core/template"
)

// §4.1–§4.2: circle x and close circle x, in any case.
var circle50Valid = []validCase{
	{"circle 3", template.Circle50{Size: 3}, "circle 3"},
	{"close circle 3", template.Circle50{Size: 3, Close: true}, "close circle 3"},
	{"circle 1", template.Circle50{Size: 1}, "circle 1"},
	{"CIRCLE 10", template.Circle50{Size: 10}, "circle 10"},
	{"Close  Circle\t2", template.Circle50{Size: 2, Close: true}, "close circle 2"},
	{"  circle3  ", template.Circle50{Size: 3}, "circle 3"},
	{"circle 500", template.Circle50{Size: template.MaxCircle50}, "circle 500"},
}

func TestParseCircle50_4(t *testing.T) { checkValid(t, circle50Valid, template.Circle50Rules) }

// §4: 50 % circle errors.
var circle50Errors = []errorCase{
	{"circle", 7, "expected the size (a number), as in circle 3"},
	{"circle ", 7, "expected the size (a number)"},
	{"circle 0", 8, "the size must be at least 1, not 0"},
	{"circle 03", 8, "the size has a leading zero"},
	{"circle -3", 8, "the size takes no sign"},
	{"circle 501", 8, "number too large: the size is at most 500"},
	{"circle 3 within 10", 10, `unexpected "within": expected the end`},
	{"circle x", 8, "expected the size (a number)"},
	{"close", 6, "expected circle after close"},
	{"close 3", 7, `unexpected "3": expected circle after close`},
	{"close cone 3", 7, `unexpected "cone": expected circle after close`},
	{"closecircle 3", 1, `unknown shape "closecircle": expected circle or close circle`},
	{"circle.3", 7, `expected the size (a number)`},
}

func TestErrorsCircle50_4(t *testing.T) { checkErrors(t, circle50Errors) }

// §4: every size up to the limit, close or not.
func TestRoundTripCircle50_4(t *testing.T) {
	for n := 1; n <= template.MaxCircle50; n++ {
		roundTrip(t, template.Circle50{Size: n})
		roundTrip(t, template.Circle50{Size: n, Close: true})
	}
}
