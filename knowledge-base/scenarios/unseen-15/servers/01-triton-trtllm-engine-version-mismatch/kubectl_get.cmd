kubectl -n inference get pods -o wide
