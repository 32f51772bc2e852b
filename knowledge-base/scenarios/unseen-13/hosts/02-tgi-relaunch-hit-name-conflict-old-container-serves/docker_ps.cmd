docker ps --filter name=tgi
