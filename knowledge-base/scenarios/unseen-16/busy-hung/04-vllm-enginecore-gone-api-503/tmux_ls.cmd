tmux ls
