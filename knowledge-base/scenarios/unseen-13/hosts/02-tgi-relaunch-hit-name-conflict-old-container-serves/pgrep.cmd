pgrep -fa 'text-generation|python'
