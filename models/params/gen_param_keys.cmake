# Generates param_keys.h from the parameter table (params.cpp): one typed
# handle per row, so code names a parameter as key::wire_rate and a key the
# table does not have does not compile. Run by the build whenever params.cpp
# changes: cmake -DSRC=params.cpp -DOUT=param_keys.h -P gen_param_keys.cmake
file(READ ${SRC} text)
string(REGEX MATCHALL "\n[ \t]*{\"[a-z0-9_.-]+\", Unit::[A-Za-z]+," rows "${text}")
set(out "// Generated from models/params/params.cpp by gen_param_keys.cmake: one typed handle\n")
string(APPEND out "// per row of the parameter table (key::wire_rate names \"wire.rate\"). Do not edit.\n")
string(APPEND out "#pragma once\n#include \"param_key.h\"\n\nnamespace ubsim::key {\n")
foreach(row ${rows})
  string(REGEX MATCH "{\"([a-z0-9_.-]+)\", Unit::([A-Za-z]+)," m "${row}")
  set(name ${CMAKE_MATCH_1})
  set(unit ${CMAKE_MATCH_2})
  string(REGEX REPLACE "[.-]" "_" id "${name}")
  string(APPEND out "inline constexpr Key<Unit::${unit}> ${id}{\"${name}\"};\n")
endforeach()
string(APPEND out "}  // namespace ubsim::key\n")
file(WRITE ${OUT}.tmp "${out}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)
