pgrep -fa 'text-generation|text_generation|python'
