systemctl cat lmdeploy --no-pager
