module github.com/bpvm/bpvm/bindings/go

go 1.19
