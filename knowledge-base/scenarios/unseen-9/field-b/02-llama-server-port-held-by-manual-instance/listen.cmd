sudo ss -ltnp
