grep -n -E 'model_name|api_base|timeout|num_retries|stream_timeout' /etc/litellm/config.yaml
