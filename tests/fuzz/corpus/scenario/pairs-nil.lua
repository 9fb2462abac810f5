for k in pairs(nil) do end
