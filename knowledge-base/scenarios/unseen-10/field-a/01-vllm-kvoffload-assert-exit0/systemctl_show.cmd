systemctl show vllm-dsv4.service -p ActiveState,SubState,Result,MainPID,NRestarts,ExecMainCode,ExecMainStatus,Restart
