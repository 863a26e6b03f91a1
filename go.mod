module github.com/aoekit/aoekit

go 1.26
