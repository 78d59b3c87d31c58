# Writes OUT, the definition of ubsim::build_info::kGitHash: the commit the
# source is at when ubsim is built (run at every build, sim/CMakeLists.txt),
# with "-dirty" when tracked files differ from it. The file is rewritten
# only when the text changes, so an unchanged commit rebuilds nothing.
execute_process(COMMAND git -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT hash)
  set(hash "unknown")
else()
  execute_process(COMMAND git -C ${SOURCE_DIR} status --porcelain --untracked-files=no
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(changes)
    string(APPEND hash "-dirty")
  endif()
endif()
set(text "// Generated at build time by sim/cli/git_hash.cmake.\n#include \"ubsim_build_info.h\"\nnamespace ubsim::build_info {\nconst char kGitHash[] = \"${hash}\";\n}  // namespace ubsim::build_info\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
