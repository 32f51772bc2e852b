ls -la /mnt/ckpt/finetune-v3
