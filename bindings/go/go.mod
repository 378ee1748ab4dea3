module samekey.invalid/go

go 1.22
