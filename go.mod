module dlmp

go 1.26.8
