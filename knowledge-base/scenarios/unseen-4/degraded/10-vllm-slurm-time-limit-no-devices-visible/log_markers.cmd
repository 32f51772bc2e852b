set -o pipefail; grep -n -E 'server_args|Shutting down|launch_server|fired up|Traceback|Error|Killed|address already' /scratch/rnguyen/jobs/vllm-eval/slurm-4471823.out | tail -30
