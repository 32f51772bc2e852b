crictl ps -a --name 'tgi|jupyter|tei'
