d=/srv/hf-cache/models--meta-llama--Llama-3.3-70B-Instruct/blobs; for i in 1 2; do date -u +%T; du -sk $d; du -k $d/*.incomplete; [ $i = 1 ] && sleep 5; done
