pgrep -fa 'text-generation|tgi|python'
