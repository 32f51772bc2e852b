ipmitool sdr type Fan
