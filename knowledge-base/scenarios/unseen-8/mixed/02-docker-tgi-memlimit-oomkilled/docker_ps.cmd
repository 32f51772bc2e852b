docker ps -a --filter name=tgi
