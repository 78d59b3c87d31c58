# The RTL: build options and blocks from rtl/blocks.json (the one place they
# are declared). Each block is verilated once into one static library (one
# copy of the Verilator runtime) of plain C++ models stepped by the bridges;
# the rtl_lint target lints every block with its parameters; rtl_variant.h
# carries the options' values, the manifest and the encodings to the C++.
set(UBSIM_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})
file(READ ${UBSIM_RTL_DIR}/blocks.json UBSIM_MANIFEST)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${UBSIM_RTL_DIR}/blocks.json ${UBSIM_RTL_DIR}/ubsim_pkg.sv)

# ---- build options: cache variables, checked against their range ----
string(JSON n_options LENGTH "${UBSIM_MANIFEST}" options)
math(EXPR last_option "${n_options} - 1")
set(UBSIM_RTL_OPTION_NAMES "")
set(UBSIM_RTL_OPTIONS_CXX "")
foreach(i RANGE ${last_option})
  string(JSON opt MEMBER "${UBSIM_MANIFEST}" options ${i})
  string(JSON def GET "${UBSIM_MANIFEST}" options ${opt} default)
  string(JSON lo GET "${UBSIM_MANIFEST}" options ${opt} min)
  string(JSON hi GET "${UBSIM_MANIFEST}" options ${opt} max)
  string(JSON pow2 GET "${UBSIM_MANIFEST}" options ${opt} pow2)
  string(JSON cxx GET "${UBSIM_MANIFEST}" options ${opt} cxx)
  string(JSON doc GET "${UBSIM_MANIFEST}" options ${opt} doc)
  set(${opt} ${def} CACHE STRING "${doc} (${lo}..${hi})")
  set(v ${${opt}})
  if(NOT v MATCHES "^[0-9]+$" OR v LESS lo OR v GREATER hi)
    message(FATAL_ERROR "RTL build option ${opt}=${v}: not a whole number in ${lo}..${hi} (rtl/blocks.json)")
  endif()
  if(pow2 STREQUAL "ON" OR pow2 STREQUAL "true")
    math(EXPR low_bits "${v} & (${v} - 1)")
    if(NOT low_bits EQUAL 0)
      message(FATAL_ERROR "RTL build option ${opt}=${v}: must be a power of two (rtl/blocks.json)")
    endif()
  endif()
  list(APPEND UBSIM_RTL_OPTION_NAMES ${opt})
  string(APPEND UBSIM_RTL_OPTIONS_CXX "inline constexpr int ${cxx} = ${v};  // ${opt}\n")
endforeach()
set(UBSIM_RTL_OPTION_VALUES_CXX "")
foreach(opt ${UBSIM_RTL_OPTION_NAMES})
  string(APPEND UBSIM_RTL_OPTION_VALUES_CXX "    {\"${opt}\", ${${opt}}},\n")
endforeach()

# ---- blocks: sources (package first, used blocks' sources, own) and parameters ----
string(JSON UBSIM_PKG GET "${UBSIM_MANIFEST}" package)
# the items of a block's array `key` (empty when it has none)
function(ubsim_block_list block key out)
  set(items "")
  string(JSON n ERROR_VARIABLE none LENGTH "${UBSIM_MANIFEST}" blocks ${block} ${key})
  if(NOT none AND n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${UBSIM_MANIFEST}" blocks ${block} ${key} ${i})
      list(APPEND items ${item})
    endforeach()
  endif()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()
function(ubsim_block_sources block out)
  set(files "")
  ubsim_block_list(${block} uses uses)
  foreach(used IN LISTS uses)
    ubsim_block_sources(${used} used_files)
    list(APPEND files ${used_files})
  endforeach()
  ubsim_block_list(${block} sources own)
  foreach(f IN LISTS own)
    list(APPEND files ${UBSIM_RTL_DIR}/${f})
  endforeach()
  list(REMOVE_DUPLICATES files)
  set(${out} ${files} PARENT_SCOPE)
endfunction()
function(ubsim_block_params block out)
  set(args "")
  string(JSON n_par LENGTH "${UBSIM_MANIFEST}" blocks ${block} params)
  if(n_par GREATER 0)
    math(EXPR last "${n_par} - 1")
    foreach(p RANGE ${last})
      string(JSON name MEMBER "${UBSIM_MANIFEST}" blocks ${block} params ${p})
      string(JSON val GET "${UBSIM_MANIFEST}" blocks ${block} params ${name})
      if(DEFINED ${val})
        set(val ${${val}})
      endif()
      list(APPEND args -G${name}=${val})
    endforeach()
  endif()
  set(${out} ${args} PARENT_SCOPE)
endfunction()

string(JSON n_blocks LENGTH "${UBSIM_MANIFEST}" blocks)
math(EXPR last_block "${n_blocks} - 1")
set(UBSIM_RTL_BLOCKS "")
# UBSIM_TEST_BLOCKS=OFF (an RTL variant's build of ubsim alone): the blocks
# only the tests use ("test_only": the rtl/v1 lockstep references) are not
# verilated
option(UBSIM_TEST_BLOCKS "verilate the test-only blocks (rtl/v1 references)" ON)
foreach(i RANGE ${last_block})
  string(JSON b MEMBER "${UBSIM_MANIFEST}" blocks ${i})
  string(JSON test_only ERROR_VARIABLE no_flag GET "${UBSIM_MANIFEST}" blocks ${b} test_only)
  if(NOT UBSIM_TEST_BLOCKS AND NOT no_flag AND test_only)
    continue()
  endif()
  list(APPEND UBSIM_RTL_BLOCKS ${b})
endforeach()

set(UBSIM_VERILATOR_ARGS -Wall --assert --x-assign fast --x-initial fast -O3)
# Coverage builds (scripts/coverage): line, toggle and named cover points of every block.
if(UBSIM_COVERAGE)
  set(UBSIM_COVERAGE_KEYWORD COVERAGE)
  list(APPEND UBSIM_VERILATOR_ARGS +define+UBSIM_COVER)   # the blocks' named cover points
  set(UBSIM_VM_COVERAGE 1)
else()
  set(UBSIM_COVERAGE_KEYWORD "")
  set(UBSIM_VM_COVERAGE 0)
endif()
set(UBSIM_RTL_INCLUDE_DIRS "")
set(UBSIM_RTL_PORTS_INCLUDES "")
set(UBSIM_RTL_LINT_COMMANDS "")

if(UBSIM_RTL_IMPORT_DIR)
  # A second build (the sanitizer build) reuses the main build's verilated
  # library: same options, same generated code, no second verilation.
  add_library(ubsim_rtl STATIC IMPORTED GLOBAL)
  set_target_properties(ubsim_rtl PROPERTIES IMPORTED_LOCATION ${UBSIM_RTL_IMPORT_DIR}/libubsim_rtl.a
                        INTERFACE_LINK_LIBRARIES "-lz;-pthread;-latomic")   # what verilate() links (FST, threads)
  set(UBSIM_RTL_OBJ_DIR ${UBSIM_RTL_IMPORT_DIR}/CMakeFiles/ubsim_rtl.dir)
else()
  add_library(ubsim_rtl STATIC)
  if(UBSIM_COVERAGE)
    # coverage instrumentation makes the models several times larger: -O3
    # would take most of an hour to compile them on two cores
    target_compile_options(ubsim_rtl PRIVATE -O1)
  else()
    target_compile_options(ubsim_rtl PRIVATE -O3)   # the verilated models are the hot loop
  endif()
  set_target_properties(ubsim_rtl PROPERTIES POSITION_INDEPENDENT_CODE ON
                        ARCHIVE_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  set(UBSIM_RTL_OBJ_DIR ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir)
endif()

# the blocks whose edge and settle skip the generic eval(): their settle's
# input region and their edge's NBA functions are generated with the clock
# and the reset as the constants they are there (gen_ports.cmake)
set(UBSIM_CLOCK_EDGES_H ${CMAKE_CURRENT_SOURCE_DIR}/models/rtl/clock_edges.h)
foreach(b ${UBSIM_RTL_BLOCKS})
  ubsim_block_sources(${b} srcs)
  ubsim_block_params(${b} params)
  string(JSON top ERROR_VARIABLE no_top GET "${UBSIM_MANIFEST}" blocks ${b} top)
  if(no_top)
    set(top ${b})
  endif()
  set(srcs ${UBSIM_RTL_DIR}/${UBSIM_PKG} ${srcs})
  if(NOT UBSIM_RTL_IMPORT_DIR)
    verilate(ubsim_rtl TRACE_FST ${UBSIM_COVERAGE_KEYWORD} SOURCES ${srcs} TOP_MODULE ${top} PREFIX V${b}
             VERILATOR_ARGS ${UBSIM_VERILATOR_ARGS} ${params})
  endif()
  list(APPEND UBSIM_RTL_INCLUDE_DIRS ${UBSIM_RTL_OBJ_DIR}/V${b}.dir)
  # the model's port table (models/rtl/port_table.h), read from its header
  if(NOT UBSIM_RTL_IMPORT_DIR)
    set(vdir ${UBSIM_RTL_OBJ_DIR}/V${b}.dir)
    # the registers its settle may take as 0 (blocks.json settle_quiet), as
    # the root's members Verilator names them (a.b -> <top>__DOT__a__DOT__b)
    ubsim_block_list(${b} settle_quiet quiet)
    list(TRANSFORM quiet PREPEND "${top}.")
    list(TRANSFORM quiet REPLACE "\\." "__DOT__")
    list(JOIN quiet "," quiet)
    # the input valids it may settle with alone (blocks.json settle_alone)
    ubsim_block_list(${b} settle_alone alone)
    list(JOIN alone "," alone)
    # the input valid a caller may say it drove alone (blocks.json settle_driven)
    ubsim_block_list(${b} settle_driven driven)
    list(LENGTH driven n_driven)
    if(n_driven GREATER 1)
      message(FATAL_ERROR "rtl/blocks.json: ${b}: settle_driven names one input valid, not ${n_driven}")
    endif()
    # the outputs such a caller reads (blocks.json settle_driven_reads)
    ubsim_block_list(${b} settle_driven_reads reads)
    list(JOIN reads "," reads)
    # and those functions for the settle and the edge (V${b}_settle.cpp).
    # The script rewrites an output only when its text changes, so that an
    # unchanged one recompiles nothing; the stamp, touched at every run, is
    # the output the rule is judged by (with the files' old times it would
    # run again at every build)
    add_custom_command(OUTPUT ${vdir}/V${b}_gen.stamp ${vdir}/V${b}_ports.h ${vdir}/V${b}_settle.cpp
                       COMMAND ${CMAKE_COMMAND} -DHEADER=${vdir}/V${b}.h -DOUT=${vdir}/V${b}_ports.h
                               -DSETTLE_OUT=${vdir}/V${b}_settle.cpp -DCLOCK_EDGES=${UBSIM_CLOCK_EDGES_H}
                               -DSETTLE_QUIET=${quiet} -DSETTLE_ALONE=${alone} -DSETTLE_DRIVEN=${driven} -DSETTLE_READS=${reads}
                               -DMODEL=V${b} -P ${UBSIM_RTL_DIR}/gen_ports.cmake
                       COMMAND ${CMAKE_COMMAND} -E touch ${vdir}/V${b}_gen.stamp
                       DEPENDS ${vdir}/V${b}.cmake ${UBSIM_RTL_DIR}/gen_ports.cmake ${UBSIM_CLOCK_EDGES_H}
                               ${UBSIM_RTL_DIR}/blocks.json VERBATIM)
    target_sources(ubsim_rtl PRIVATE ${vdir}/V${b}_ports.h ${vdir}/V${b}_settle.cpp)
  endif()
  string(APPEND UBSIM_RTL_PORTS_INCLUDES "#include \"V${b}_ports.h\"\n")
  list(APPEND UBSIM_RTL_LINT_COMMANDS
       COMMAND ${VERILATOR_BIN} --lint-only -Wall --assert --top-module ${top} ${params} ${srcs}
       COMMAND ${VERILATOR_BIN} --lint-only -Wall --assert +define+UBSIM_COVER --top-module ${top} ${params} ${srcs})
endforeach()

# ---- lint: every block with its parameters (scripts/test runs it) ----
add_custom_target(rtl_lint ${UBSIM_RTL_LINT_COMMANDS}
                  COMMAND ${CMAKE_COMMAND} -E echo "rtl lint: clean (verilator --lint-only -Wall, every block of rtl/blocks.json)"
                  WORKING_DIRECTORY ${UBSIM_RTL_DIR} VERBATIM)

# ---- generated C++: option values, the manifest, the encodings ----
file(STRINGS ${UBSIM_RTL_DIR}/${UBSIM_PKG} pkg_lines REGEX "^[ \t]*localparam int [A-Z_0-9]+ = [0-9]+;")
set(UBSIM_RTL_ENCODINGS_CXX "")
foreach(line ${pkg_lines})
  string(REGEX REPLACE "^[ \t]*localparam int ([A-Z_0-9]+) = ([0-9]+);.*" "inline constexpr int \\1 = \\2;" cxx "${line}")
  string(APPEND UBSIM_RTL_ENCODINGS_CXX "${cxx}\n")
endforeach()
# packed structs: per member Field{lsb, width} (the last member at bit 0), and kBits
file(STRINGS ${UBSIM_RTL_DIR}/${UBSIM_PKG} pkg_all)
set(in_struct OFF)
foreach(line IN LISTS pkg_all)
  if(line MATCHES "^[ \t]*typedef struct packed")
    set(in_struct ON)
    set(members "")
  elseif(in_struct AND line MATCHES "^[ \t]*}[ \t]*([a-z_0-9]+)_t;")
    set(in_struct OFF)
    set(ns ${CMAKE_MATCH_1})
    set(lsb 0)
    set(fields "")
    list(REVERSE members)
    foreach(m IN LISTS members)
      string(REPLACE ":" ";" mw "${m}")
      list(GET mw 0 name)
      list(GET mw 1 width)
      string(PREPEND fields "inline constexpr Field ${name}{${lsb}, ${width}};\n")
      math(EXPR lsb "${lsb} + ${width}")
    endforeach()
    string(APPEND UBSIM_RTL_ENCODINGS_CXX "namespace ${ns} {\n${fields}inline constexpr int kBits = ${lsb};\n}  // namespace ${ns}\n")
  elseif(in_struct AND line MATCHES "^[ \t]*logic[ \t]*\\[([0-9]+):0\\][ \t]*([a-z_0-9]+);")
    math(EXPR width "${CMAKE_MATCH_1} + 1")
    list(APPEND members "${CMAKE_MATCH_2}:${width}")
  elseif(in_struct AND line MATCHES "^[ \t]*logic[ \t]+([a-z_0-9]+);")
    list(APPEND members "${CMAKE_MATCH_1}:1")
  endif()
endforeach()
set(UBSIM_RTL_MANIFEST_TEXT "${UBSIM_MANIFEST}")
# every block's port table, for VerilatedBlock (record, replay, compare)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/generated/rtl_ports.h.tmp
     "// Generated by rtl/rtl.cmake: the port tables of every block of rtl/blocks.json.\n#pragma once\n${UBSIM_RTL_PORTS_INCLUDES}")
file(COPY_FILE ${CMAKE_CURRENT_BINARY_DIR}/generated/rtl_ports.h.tmp ${CMAKE_CURRENT_BINARY_DIR}/generated/rtl_ports.h ONLY_IF_DIFFERENT)
configure_file(${UBSIM_RTL_DIR}/rtl_variant.h.in ${CMAKE_CURRENT_BINARY_DIR}/generated/rtl_variant.h @ONLY)

# Consumers including verilated.h must see the same VM_* values (docs/toolchain.md).
target_compile_definitions(ubsim_rtl INTERFACE VM_TRACE=1 VM_TRACE_FST=1 VM_COVERAGE=${UBSIM_VM_COVERAGE} VM_SC=0)
target_include_directories(ubsim_rtl INTERFACE ${UBSIM_RTL_INCLUDE_DIRS}
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd ${CMAKE_CURRENT_BINARY_DIR}/generated)
