package notation

import (
	"github.com/aoekit/aoekit/core/template"
)

// circle50 parses "circle N" and "close circle N" in any case (SPEC §4).
func (p *parser) circle50() (template.Shape, error) {
	w := p.word()
	close := p.is(w, "close")
	if close {
		p.skipSpace()
		w = p.word()
		if !p.is(w, "circle") {
			p.i = w.start
			if p.i == p.end {
				return nil, p.fail(p.i, "expected circle after close, as in close circle 3")
			}
			return nil, p.unexpected("circle after close, as in close circle 3")
		}
	} else if !p.is(w, "circle") {
		return nil, p.fail(w.start, "unknown shape "+p.describe(w.start)+": expected circle or close circle, as in close circle 3")
	}
	p.skipSpace()
	n, err := p.number("size", template.MaxCircle50, "circle 3")
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i < p.end {
		return nil, p.unexpected("the end")
	}
	return template.Circle50{Size: n, Close: close}, nil
}
