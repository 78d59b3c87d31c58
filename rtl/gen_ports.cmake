# Writes V<block>_ports.h: the port table of one verilated model, read from
# the model's header (VL_IN*/VL_OUT* declarations), so a tool that records,
# replays or compares a block's ports (models/rtl/port_table.h) needs no
# hand-written list. Also, from the root class, the model's gated clocks
# (clock_gate.sv instances: each unit's gclk and the latch that enables it),
# which the rising edge of a gated block sets itself, and the signals its
# edge triggers watch, which the clock-low settle records (clock_edge.h),
# and, from the generated C++, the edge's NBA region without what the settle
# recomputes (EdgeNba, below), and, for the blocks registered in
# CLOCK_EDGES, the settle's input region with the clock and reset low and
# the edge's NBA functions with the reset low (SettleIco and EdgeNba below;
# their functions in SETTLE_OUT).
# (also with the input valids low, and with the block's quiet registers,
# SETTLE_QUIET, as 0 as well; and with every valid but one of SETTLE_ALONE
# low: copies the settle takes while they are; and with every valid but
# SETTLE_DRIVEN low: a copy a caller takes where it drove that valid alone,
# with no test of the ports; and the same without the stores of the outputs
# other than SETTLE_READS, for a caller that reads no other).
# Run as: cmake -DHEADER=.../Vx.h -DOUT=.../Vx_ports.h [-DSETTLE_OUT=.../Vx_settle.cpp
#   -DCLOCK_EDGES=.../clock_edges.h] [-DSETTLE_QUIET=reg,reg] [-DSETTLE_ALONE=s_a_valid,s_b_valid]
#   [-DSETTLE_DRIVEN=s_valid [-DSETTLE_READS=s_ready,m_valid]] -DMODEL=Vx -P gen_ports.cmake
cmake_policy(SET CMP0057 NEW)   # if(IN_LIST)
file(STRINGS "${HEADER}" decls REGEX "^[ \t]*VL_(IN|OUT)(8|16|64|W)?\\(&[A-Za-z_0-9]+,")
set(rows "")
set(outputs "")
set(idle_valids "")
set(any_valid "")   # (any of them set, as a C++ expression)
foreach(d IN LISTS decls)
  if(NOT d MATCHES "VL_(IN|OUT)(8|16|64|W)?\\(&([A-Za-z_0-9]+),([0-9]+),([0-9]+)")
    message(FATAL_ERROR "gen_ports: cannot read '${d}' in ${HEADER}")
  endif()
  set(dir ${CMAKE_MATCH_1})
  set(name ${CMAKE_MATCH_3})
  math(EXPR bits "${CMAKE_MATCH_4} - ${CMAKE_MATCH_5} + 1")
  if(dir STREQUAL "IN")
    set(input true)
    # (a handshake's valid: low in most cycles, see settle_idle below)
    if(name MATCHES "^s_[a-z0-9_]*valid$" AND bits EQUAL 1)
      list(APPEND idle_valids ${name})
      if(any_valid STREQUAL "")
        set(any_valid "vlSelf->${name}")
      else()
        string(APPEND any_valid " | vlSelf->${name}")
      endif()
    endif()
  else()
    set(input false)
    list(APPEND outputs ${name})
  endif()
  string(APPEND rows "    {\"${name}\", ${input}, ${bits}, sizeof(M::${name}), [](void* m) -> void* { return &static_cast<M*>(m)->${name}; }},\n")
endforeach()
get_filename_component(dir "${HEADER}" DIRECTORY)
set(root_header "${dir}/${MODEL}___024root.h")
set(root_text "")
if(EXISTS "${root_header}")
  file(READ "${root_header}" root_text)
endif()
# One generated specialization of a template over the root class's members
# that match `regex` (its capture 1 replaces each @ in `line`): struct
# ubsim::<what><MODEL> with kCount and one function `fn` of the lines, or
# nothing when no member matches.
function(root_struct out what fn comment regex line)
  set(body "")
  set(n 0)
  if(EXISTS "${root_header}")
    file(STRINGS "${root_header}" members REGEX "${regex}")
    foreach(m IN LISTS members)
      if(m MATCHES "${regex}")
        string(REPLACE "@" "${CMAKE_MATCH_1}" l "${line}")
        string(APPEND body "    ${l}\n")
        math(EXPR n "${n} + 1")
      endif()
    endforeach()
  endif()
  if(n EQUAL 0)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(${out} "
// ${comment}
#include \"${MODEL}___024root.h\"
template <>
struct ubsim::${what}<${MODEL}> {
  static constexpr int kCount = ${n};
  static void ${fn}(${MODEL}___024root* r) {
${body}  }
};
" PARENT_SCOPE)
endfunction()
set(gated "")
# The signals the edge triggers watch: every __Vtrigrprev__TOP__<signal>.
root_struct(low ClockLowTriggers record "The signals the edge triggers watch, recorded with the clock low."
            "__Vtrigrprev__TOP__([A-Za-z_0-9]+);"
            "r->__Vtrigrprev__TOP__@ = r->@;")
# The rising edge's NBA region without the combinational functions the next
# clock-low settle recomputes (EdgeNba<M>, used by the blocks clock_edges.h
# opts in). Verilator places every signal that depends on an input in the
# input region, which the settle runs in full; after an edge it also
# recomputes them from the new register values with the inputs still held
# (functions named nba_comb, or nba_sequent in a one-clock block). A function
# every one of whose assignments is to a
# signal the input region assigns too, and which does nothing else, only
# computes values the settle replaces before anything can read them: no
# register reads them at this edge (the NBA functions before it have run),
# and whatever depends on them is input logic too. Only a bridge reading
# such a signal after the edge would see the value from before it: kStale
# lists the ports among them.
set(nba "")
set(settle_ico "")
set(settle_low_cpp "")
# (only for a block whose settle takes SettleIco: one registered in
# CLOCK_EDGES, models/rtl/clock_edges.h; another's would be dead code)
set(settle_low_wanted FALSE)
set(edge_low_max_lines 13000)
set(edge_inline_max_lines 40)
set(edge_from_latches FALSE)
set(mask_from_enables FALSE)
if(DEFINED CLOCK_EDGES)
  file(READ "${CLOCK_EDGES}" clock_edges_text)
  if(clock_edges_text MATCHES "\nUBSIM_CLOCK_EDGE_[A-Z_]+\\(${MODEL}\\)")
    set(settle_low_wanted TRUE)
  endif()
  # (and whose edge takes its triggers from the latches: EdgeTriggers<M>
  # below, at a block registered with its input logic at the settle)
  if(clock_edges_text MATCHES "\nUBSIM_CLOCK_EDGE_GATED_INPUT_LOGIC_AT_SETTLE\\(${MODEL}\\)")
    set(edge_from_latches TRUE)
  endif()
endif()
# the registers the settle may take as 0 while they are (-DSETTLE_QUIET=a,b:
# blocks.json settle_quiet, as the root's members)
set(quiet_regs "")
if(DEFINED SETTLE_QUIET AND NOT SETTLE_QUIET STREQUAL "")
  string(REPLACE "," ";" quiet_regs "${SETTLE_QUIET}")
  # (each must be a member of the root: a name that is not would otherwise
  # leave the copy out unseen, or half made)
  foreach(reg IN LISTS quiet_regs)
    if(NOT root_text MATCHES "[ \t]${reg};")
      message(FATAL_ERROR "gen_ports: settle_quiet register ${reg} is not a member of ${MODEL}'s root (rtl/blocks.json)")
    endif()
  endforeach()
endif()
# the input valids the settle may find high alone (-DSETTLE_ALONE: blocks.json
# settle_alone), each an input handshake's valid of the block
# (a comma-separated list of blocks.json `key` as a list in `out`, each
# name one of `allowed`, else the build stops naming it as not `what`)
function(block_names out key value allowed what)
  set(names "")
  if(NOT value STREQUAL "")
    string(REPLACE "," ";" names "${value}")
    foreach(n IN LISTS names)
      if(NOT n IN_LIST allowed)
        message(FATAL_ERROR "gen_ports: ${key} ${n} is not ${what} of ${MODEL} (rtl/blocks.json)")
      endif()
    endforeach()
  endif()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()
block_names(alone_valids settle_alone "${SETTLE_ALONE}" "${idle_valids}" "an input valid")
# the input valid a caller may drive alone and say so (-DSETTLE_DRIVEN:
# blocks.json settle_driven): a copy with every other valid low, called
# without a test (SettleIco<M>::run_clock_low_driven); and the idle copies'
# choice for a caller that says it drove no valid (run_clock_low_nothing)
if(DEFINED SETTLE_DRIVEN AND NOT SETTLE_DRIVEN STREQUAL "" AND NOT SETTLE_DRIVEN IN_LIST idle_valids)
  message(FATAL_ERROR "gen_ports: settle_driven ${SETTLE_DRIVEN} is not an input valid of ${MODEL} (rtl/blocks.json)")
endif()
# (the input valids other than it, once: the driven copy takes them as low)
set(driven_others "${idle_valids}")
if(DEFINED SETTLE_DRIVEN AND NOT SETTLE_DRIVEN STREQUAL "")
  list(REMOVE_ITEM driven_others ${SETTLE_DRIVEN})
endif()
# the outputs a caller that drove SETTLE_DRIVEN alone reads before the edge,
# where it says so (-DSETTLE_READS: blocks.json settle_driven_reads): a
# copy of the driven one without the stores of the other outputs
# (SettleIco<M>::run_clock_low_driven_bare)
block_names(settle_reads settle_driven_reads "${SETTLE_READS}" "${outputs}" "an output")
set(vcmake "${dir}/${MODEL}.cmake")
if(EXISTS "${vcmake}")
  file(STRINGS "${vcmake}" fast_line REGEX "^set\\(${MODEL}_CLASSES_FAST ")
  string(REGEX MATCHALL "[^\" ]+___024root__DepSet_[^\" ]+\\.cpp" dep_files "${fast_line}")
  set(code "")
  foreach(f IN LISTS dep_files)
    file(READ "${f}" c)
    string(APPEND code "${c}")
  endforeach()
  # The gated clocks (clock_gate.sv instances, whatever their names): each
  # latch's net, as the settle assigns it (NET = clk & LATCH). Verilator
  # names the net after one of the signals it drives, which need not be in
  # the gate's unit (a clock shared by several units takes a name from one
  # of them), so the net is found from its assignment, not from the
  # latch's name.
  set(gate_re "vlSelf->([A-Za-z0-9_]+)[ \n]*=[ \n]*\\(\\(IData\\)\\(vlSelf->clk\\)[ \n]*&[ \n]*\\(IData\\)\\(vlSelf->([A-Za-z0-9_]+__DOT__g_gate__DOT__en_l)\\)\\)")   # (no ";": it would split the list)
  string(REGEX MATCHALL "${gate_re}" gate_hits "${code}")
  set(gate_nets "")
  set(gate_body "")
  set(n_gates 0)
  foreach(h IN LISTS gate_hits)
    string(REGEX REPLACE "^${gate_re}$" "\\1" net "${h}")
    string(REGEX REPLACE "^${gate_re}$" "\\2" latch "${h}")
    if(net IN_LIST gate_nets)
      continue()
    endif()
    list(APPEND gate_nets ${net})
    set(gate_latch_${net} ${latch})
    string(APPEND gate_body "    r->${net} = r->${latch};\n")
    math(EXPR n_gates "${n_gates} + 1")
  endforeach()
  if(n_gates GREATER 0)
    set(gated "
// The units' gated clocks: at a rising edge each is its latched enable.
#include \"${MODEL}___024root.h\"
template <>
struct ubsim::GatedClocks<${MODEL}> {
  static constexpr int kCount = ${n_gates};
  static void rise(${MODEL}___024root* r) {
${gate_body}  }
};
")
  endif()
  # body of generated function <name> ("" when not defined)
  function(fn_body out name)
    set(head "void ${MODEL}___024root___${name}(${MODEL}___024root* vlSelf) {\n")
    string(FIND "${code}" "${head}" at)
    if(at EQUAL -1)
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    string(LENGTH "${head}" hl)
    math(EXPR at "${at} + ${hl}")
    string(SUBSTRING "${code}" ${at} -1 rest)
    string(FIND "${rest}" "\n}\n" end)
    string(SUBSTRING "${rest}" 0 ${end} body)
    # the debug trace line and the symbol table pointer (unused here)
    string(REGEX REPLACE "\n[ ]*VL_DEBUG_IF\\([^\n]*" "" body "${body}")
    string(REGEX REPLACE "\n[ ]*${MODEL}__Syms\\* const __restrict vlSymsp VL_ATTR_UNUSED = vlSelf->vlSymsp;" "" body "${body}")
    set(${out} "${body}" PARENT_SCOPE)
  endfunction()
  # what capture 1 of `regex` names in each of its matches in body, in order
  function(captures out body regex)
    string(REGEX MATCHALL "${regex}" hits "${body}")
    set(names "")
    foreach(h IN LISTS hits)
      string(REGEX REPLACE "^${regex}$" "\\1" n "${h}")
      list(APPEND names ${n})
    endforeach()
    set(${out} "${names}" PARENT_SCOPE)
  endfunction()
  # the members a body assigns (vlSelf->name, with any index, then "="), once each
  function(assigned out body)
    captures(names "${body}" "vlSelf->([A-Za-z0-9_]+)(\\[[^]=]*\\])*[ \n]*=[^=]")
    list(REMOVE_DUPLICATES names)
    set(${out} "${names}" PARENT_SCOPE)
  endfunction()
  # whether a body is only assignments `assigned` reads in full: FALSE for
  # an empty body, a statement other than an assignment (a call: a wide
  # operation's macro), or an assignment whose index holds an "=" (which
  # `assigned` would not see)
  function(plain_assignments out body)
    if(body STREQUAL "" OR body MATCHES "\n[ ]*[A-Za-z_][A-Za-z0-9_]*\\(" OR body MATCHES "\\[[^]\n]*=[^]\n]*\\][ \n]*=[^=]")
      set(${out} FALSE PARENT_SCOPE)
    else()
      set(${out} TRUE PARENT_SCOPE)
    endif()
  endfunction()
  # the generated functions a body calls
  function(called out body)
    captures(names "${body}" "${MODEL}___024root___([A-Za-z0-9_]+)\\(vlSelf\\)")
    set(${out} "${names}" PARENT_SCOPE)
  endfunction()
  # body without the waveform activity flags (a traced block takes eval(),
  # never the functions generated from it here)
  function(without_activity out body)
    string(REGEX REPLACE "\n[ ]*vlSelf->__Vm_traceActivity\\[[0-9xa-fA-FU]+\\] = 1U;" "" b "${body}")
    set(${out} "${b}" PARENT_SCOPE)
  endfunction()
  # body with every read of each signal of `values` (a list of
  # <signal>=<constant>) as that constant, for a copy that runs only while
  # the signals hold them (V<block>_settle.cpp); "" when the body reads none
  # of them or assigns one
  function(with_values out body values)
    set(reads FALSE)
    foreach(sv IN LISTS values)
      string(REPLACE "=" ";" sv "${sv}")
      list(GET sv 0 sig)
      list(GET sv 1 value)
      if(body MATCHES "vlSelf->${sig}[ ]*=[^=]")
        set(${out} "" PARENT_SCOPE)
        return()
      endif()
      if(body MATCHES "vlSelf->${sig}[^A-Za-z0-9_]")
        set(reads TRUE)
        string(REPLACE "(IData)(vlSelf->${sig})" "${value}" body "${body}")
        string(REGEX REPLACE "vlSelf->${sig}([^A-Za-z0-9_])" "${value}\\1" body "${body}")
      endif()
    endforeach()
    if(reads)
      set(${out} "${body}" PARENT_SCOPE)
    else()
      set(${out} "" PARENT_SCOPE)
    endif()
  endfunction()
  # the same with every signal of `sigs` low
  function(with_low out body sigs)
    list(REMOVE_ITEM sigs "")
    list(TRANSFORM sigs APPEND "=0U")
    with_values(copy "${body}" "${sigs}")
    set(${out} "${copy}" PARENT_SCOPE)
  endfunction()
  # body with the temporaries generated function <f> writes before it reads
  # them as its own locals: an inlined function's variables (__Vfunc_*), a
  # block's local variables (*__DOT__unnamedblk<n>__DOT__*), the bound and
  # DFG temporaries. Verilator 5.006 keeps each as a member of the root
  # when another function also names it, which the initial settle (a slow
  # function) always does, and the input and active regions each take a
  # copy of a combinational block: so every use is a load or a store to
  # the root, and a word of a wide one is copied whether or not anything
  # reads it. A member is taken as a local only where, in every function
  # of the model's fast code that names it, statements that end before its
  # first read assign all of it (each word of a wide one): no value flows
  # into one of them from another function or an earlier call. (In the
  # text's order: an assignment in a branch counts. The lockstep tests
  # step each block through these copies against eval() through the
  # model's own functions, which keep the members.) A local is zeroed
  # where it is declared.
  function(localized out f body)
    captures(names "${body}" "vlSelf->(__Vfunc_[A-Za-z0-9_]+|[A-Za-z0-9_]+__DOT__unnamedblk[0-9]+__DOT__[A-Za-z0-9_]+|[A-Za-z0-9_]*__Vlvbound_[A-Za-z0-9_]+|[A-Za-z0-9_]*__VdfgTmp_[A-Za-z0-9_]+)")
    list(REMOVE_DUPLICATES names)
    if(NOT names)
      set(${out} "${body}" PARENT_SCOPE)
      return()
    endif()
    # the fast code's functions, once: their names and bodies
    get_property(fns GLOBAL PROPERTY gen_ports_fast_fns)
    if(NOT fns)
      captures(fns "${code}" "\n[A-Z_ ]*void ${MODEL}___024root___([A-Za-z0-9_]+)\\(${MODEL}___024root\\* vlSelf\\) {")
      foreach(g IN LISTS fns)
        fn_body(gb ${g})
        set_property(GLOBAL PROPERTY gen_ports_fn_${g} "${gb}")
      endforeach()
      set_property(GLOBAL PROPERTY gen_ports_fast_fns "${fns}")
    endif()
    set(decls "")
    foreach(n IN LISTS names)
      # (its type where it may be a local, "-" where not: asked once per
      # member)
      get_property(type GLOBAL PROPERTY gen_ports_local_${n})
      if(NOT type)
        set(type "-")
        if(root_text MATCHES "\n[ ]*([CSIQEW]Data|VlWide<[0-9]+>)(/\\*[0-9:]+\\*/)? ${n};")
          set(type "${CMAKE_MATCH_1}")
          # (its uses marked by characters C++ code has not: a read, and a
          # write of the whole or of one word)
          string(ASCII 1 read)
          string(ASCII 2 write)
          set(words 1)
          if(type MATCHES "^VlWide<([0-9]+)>$")
            set(words ${CMAKE_MATCH_1})
          endif()
          foreach(g IN LISTS fns)
            get_property(gb GLOBAL PROPERTY gen_ports_fn_${g})
            if(NOT gb MATCHES "vlSelf->${n}[^A-Za-z0-9_]")
              continue()
            endif()
            string(REGEX REPLACE "vlSelf->${n}((\\[[0-9xa-fA-FU]+\\])?[ \n]*=[^=])" "${write}\\1" marked "${gb}")
            string(REGEX REPLACE "vlSelf->${n}([^A-Za-z0-9_])" "${read}\\1" marked "${marked}")
            # its first read, and the statements that end before it: they
            # must write all of it (each word of a wide one)
            string(FIND "${marked}" "${read}" first_read)
            if(first_read EQUAL -1)
              continue()
            endif()
            string(SUBSTRING "${marked}" 0 ${first_read} before)
            string(FIND "${before}" ";" last_end REVERSE)
            set(written "")
            if(NOT last_end EQUAL -1)
              string(SUBSTRING "${before}" 0 ${last_end} before)
              if(words EQUAL 1)
                if(before MATCHES "${write}[ \n]*=")
                  set(written 0)
                endif()
              else()
                string(REGEX MATCHALL "${write}\\[[0-9xa-fA-F]+U\\]" hits "${before}")
                foreach(h IN LISTS hits)
                  string(REGEX REPLACE "^${write}\\[([0-9xa-fA-F]+)U\\]$" "\\1" w "${h}")
                  math(EXPR w "${w}")
                  list(APPEND written ${w})
                endforeach()
                list(REMOVE_DUPLICATES written)
              endif()
            endif()
            list(LENGTH written n_written)
            if(NOT n_written EQUAL words)
              set(type "-")
              break()
            endif()
          endforeach()
        endif()
        set_property(GLOBAL PROPERTY gen_ports_local_${n} "${type}")
      endif()
      if(type STREQUAL "-")
        continue()
      endif()
      string(APPEND decls "    ${type} ${n}{};\n")
      string(REGEX REPLACE "vlSelf->${n}([^A-Za-z0-9_])" "${n}\\1" body "${body}")
    endforeach()
    set(${out} "${decls}${body}" PARENT_SCOPE)
  endfunction()
  # appends function <prefix>__<f> of `body` to the copies, its declaration
  # to `decls_var` (a function: a macro's arguments would be read again as
  # CMake text, escapes and all)
  function(add_low_copy prefix f body decls_var)
    localized(body ${f} "${body}")
    set(settle_low_cpp "${settle_low_cpp}
void ${MODEL}___024root___${prefix}__${f}(${MODEL}___024root* vlSelf) {
    ${MODEL}__Syms* const __restrict vlSymsp VL_ATTR_UNUSED = vlSelf->vlSymsp;
${body}
}
" PARENT_SCOPE)
    set(${decls_var} "${${decls_var}}void ${MODEL}___024root___${prefix}__${f}(${MODEL}___024root*);\n" PARENT_SCOPE)
  endfunction()
  # a further copy <prefix>__<f> of `body` with `sigs` and `extra` low,
  # made when `extra` is not empty, the copy reads one of them and it
  # differs from `prev` (the copy it would stand beside): its body in `out`
  # ("" when not made)
  function(add_further_copy out prefix f body sigs extra prev)
    set(copy "")
    if(NOT extra STREQUAL "")
      with_low(copy "${body}" "${sigs};${extra}")
    endif()
    if(NOT copy STREQUAL "" AND NOT copy STREQUAL prev)
      add_low_copy(${prefix} ${f} "${copy}" ico_decls)
      set(settle_low_cpp "${settle_low_cpp}" PARENT_SCOPE)
      set(ico_decls "${ico_decls}" PARENT_SCOPE)
    else()
      set(copy "")
    endif()
    set(${out} "${copy}" PARENT_SCOPE)
  endfunction()
  # `body` (a copy of generated function <f>) without its stores of the
  # outputs a caller has said it does not read (every output but those of
  # settle_reads and the activity outputs): each such output that nothing
  # of the model's fast code reads (the generated root functions: every
  # mention of it there a store `vlSelf-><out> = ...`) and that the copy
  # stores only in plain statements `vlSelf-><out> = <expression>;`, so
  # that nothing is left to name it. An output left out holds a stale value
  # until a settle that stores it (any other copy) or an edge that does.
  # `out`: the body ("" when no store is left out), `dropped_var`: the
  # outputs left out.
  function(without_unread_stores out dropped_var f body)
    set(${out} "" PARENT_SCOPE)
    set(${dropped_var} "" PARENT_SCOPE)
    set(dropped "")
    string(REPLACE ";" "," code_text "${code}")   # (a match must not hold a list separator)
    foreach(o IN LISTS outputs)
      if(o IN_LIST settle_reads OR o MATCHES "^(busy|quiet|wake_in)$")
        continue()
      endif()
      set(ref "vlSelf->${o}([^A-Za-z0-9_]|$)")
      string(REGEX MATCHALL "${ref}" mentions "${code_text}")
      string(REGEX MATCHALL "vlSelf->${o}[ \n]*=[^=]" stores "${code_text}")
      list(LENGTH mentions n_mentions)
      list(LENGTH stores n_stores)
      if(NOT n_mentions EQUAL n_stores)
        continue()
      endif()
      string(REGEX REPLACE "\n[ ]*vlSelf->${o}[ \n]*= [^;]*;" "" without "${body}")
      if(without STREQUAL body OR without MATCHES "${ref}")
        continue()
      endif()
      set(body "${without}")
      list(APPEND dropped ${o})
    endforeach()
    if(dropped)
      set(${out} "${body}" PARENT_SCOPE)
      set(${dropped_var} "${dropped}" PARENT_SCOPE)
    endif()
  endfunction()
  # body without its top-level stores of internal signals that the input
  # region assigns too (ico_set), which the next clock-low settle
  # recomputes from the new registers, as for the functions the edge leaves
  # out whole (EdgeNba, below): Verilator merges such combinational updates
  # into the end of a unit's sequential function, so the edge would compute
  # them twice. Only whole statements `vlSelf-><sig>[<constant>] =
  # <expression>;` at the body's top level, not ports (a bridge may read
  # them after the edge), and only a signal that nothing of the edge
  # mentions after its first store: not the rest of the body, nor `later`
  # (the functions the edge may run after it). A register reads the values
  # from before the edge, so its readers come before the store in the NBA
  # region's order. `out`: the body, with them left out.
  function(without_settled_stores out body later)
    set(store "(\\[[0-9a-fxU]+\\])*[ \n]*= [^;]*;")
    captures(tops "${body}" "\n    vlSelf->([A-Za-z0-9_]+)(\\[[0-9a-fxU]+\\])*[ \n]*=[^=]")
    list(REMOVE_DUPLICATES tops)
    list(REVERSE tops)   # (the last first: a store read only by a later one goes with it)
    foreach(n IN LISTS tops)
      if(NOT n IN_LIST ico_set OR NOT n MATCHES "__DOT__")
        continue()
      endif()
      set(ref "vlSelf->${n}([^A-Za-z0-9_]|$)")
      if(later MATCHES "${ref}")
        continue()
      endif()
      string(REGEX MATCH "\n    vlSelf->${n}${store}" first "${body}")
      string(FIND "${body}" "${first}" at)
      string(SUBSTRING "${body}" ${at} -1 rest)
      string(REGEX REPLACE "\n    vlSelf->${n}${store}" "" rest "${rest}")
      if(rest MATCHES "${ref}")
        continue()
      endif()
      string(REGEX REPLACE "\n    vlSelf->${n}${store}" "" body "${body}")
    endforeach()
    set(${out} "${body}" PARENT_SCOPE)
  endfunction()
  # A copy <prefix>__<f> of `body` with `fixed` and `zeros` low, taken
  # while `zeros` are: `call_var` (the call the settle makes otherwise)
  # becomes that call guarded by them, falling back to it.
  function(add_guarded_copy call_var prefix f body fixed zeros prev)
    if(zeros)
      add_further_copy(copy_body ${prefix} ${f} "${body}" "${fixed}" "${zeros}" "${prev}")
      if(NOT copy_body STREQUAL "")
        guard_call(${call_var} ${prefix} ${f} "${zeros}")
        set(${call_var} "${${call_var}}" PARENT_SCOPE)
        set(settle_low_cpp "${settle_low_cpp}" PARENT_SCOPE)
        set(ico_decls "${ico_decls}" PARENT_SCOPE)
      endif()
    endif()
  endfunction()
  # `call_var` (a call) becomes the call of the copy <prefix>__<f>, taken
  # while every register or input of `zeros` is 0, falling back to it.
  function(guard_call call_var prefix f zeros)
    list(TRANSFORM zeros PREPEND "vlSelf->" OUTPUT_VARIABLE zero_reads)
    list(JOIN zero_reads " | " any_zero)
    set(${call_var} "if (!(${any_zero})) ${MODEL}___024root___${prefix}__${f}(vlSelf); else ${${call_var}}" PARENT_SCOPE)
  endfunction()
  # The masked NBA region (a chain of tests of the mask's bits, each calling
  # functions) as one switch over the bits it tests: each case calls, in the
  # chain's order, the functions whose test holds for it, so an edge makes
  # one indexed jump instead of a test per function. Every combination of
  # the bits has its case, so the switch replaces the chain whole. "" where
  # the body is anything else or tests a bit above bit 10 (at most 2,048
  # cases): the chain stays.
  function(mask_switch out body)
    set(${out} "" PARENT_SCOPE)
    string(REGEX REPLACE "(^|\n)[ ]*if \\(false && vlSelf\\) {}[^\n]*" "" rest "${body}")
    string(REGEX REPLACE "(^|\n)[ ]*// Body[^\n]*" "" rest "${rest}")
    set(n 0)
    set(all 0)
    foreach(block RANGE 0 1000)   # (a bound, not a while(): this script sets no policies)
      string(STRIP "${rest}" rest)
      if(rest STREQUAL "")
        break()
      endif()
      if(NOT rest MATCHES "^if \\(([^{}]*)\\) {([^{}]*)}")
        return()
      endif()
      set(cond "${CMAKE_MATCH_1}")
      set(calls "${CMAKE_MATCH_2}")
      string(LENGTH "${CMAKE_MATCH_0}" used)
      string(SUBSTRING "${rest}" ${used} -1 rest)
      # (Verilator writes a bit above 9 in hex: 1U << 0xaU)
      string(REGEX MATCHALL "\\(t & \\(1U << (0x[0-9a-f]+|[0-9]+)U\\)\\)" terms "${cond}")
      string(REGEX REPLACE "\\(t & \\(1U << (0x[0-9a-f]+|[0-9]+)U\\)\\)" "" left "${cond}")
      string(REGEX REPLACE "[() |\n]" "" left "${left}")
      string(REGEX MATCHALL "[A-Za-z0-9_]+\\(vlSelf\\);" fns "${calls}")
      string(REGEX REPLACE "[A-Za-z0-9_]+\\(vlSelf\\);" "" left_calls "${calls}")
      string(STRIP "${left_calls}" left_calls)
      if(NOT left STREQUAL "" OR NOT left_calls STREQUAL "" OR NOT terms)
        return()
      endif()
      set(m 0)
      foreach(term IN LISTS terms)
        string(REGEX MATCH "<< (0x[0-9a-f]+|[0-9]+)U" _ "${term}")
        math(EXPR m "${m} | (1 << ${CMAKE_MATCH_1})")
      endforeach()
      math(EXPR all "${all} | ${m}")
      set(mask_${n} ${m})
      string(REPLACE "(vlSelf);" "" fns "${fns}")
      set(fns_${n} "${fns}")
      math(EXPR n "${n} + 1")
    endforeach()
    if(n EQUAL 0 OR all GREATER 2047)
      return()
    endif()
    math(EXPR last_block "${n} - 1")
    set(bodies "")
    foreach(v RANGE 0 ${all})
      math(EXPR outside "${v} & ~${all}")
      if(NOT outside EQUAL 0)
        continue()
      endif()
      set(case_body "")
      foreach(i RANGE 0 ${last_block})
        math(EXPR hit "${v} & ${mask_${i}}")
        if(NOT hit EQUAL 0)
          foreach(f IN LISTS fns_${i})
            string(APPEND case_body "        ${f}(vlSelf);\n")
          endforeach()
        endif()
      endforeach()
      string(MD5 h "${case_body}")
      if(NOT DEFINED labels_${h})
        list(APPEND bodies ${h})
        set(body_${h} "${case_body}")
      endif()
      math(EXPR hex "${v}" OUTPUT_FORMAT HEXADECIMAL)
      string(APPEND labels_${h} "      case ${hex}U:\n")
    endforeach()
    set(sw "    switch (t & ${all}U) {\n")
    foreach(h IN LISTS bodies)
      string(APPEND sw "${labels_${h}}${body_${h}}        return;\n")
    endforeach()
    string(APPEND sw "    }\n")
    set(${out} "${sw}" PARENT_SCOPE)
  endfunction()
  fn_body(ico_body eval_ico)
  fn_body(nba_body eval_nba)
  # The clock-low settle's input region without its trigger vector: the
  # generated _eval_ico with its one trigger (_eval's first iteration, set on
  # every call) taken as set, and without the waveform activity flag (a
  # traced block settles through eval()).
  string(REGEX MATCHALL "__VicoTriggered" ico_hits "${ico_body}")
  list(LENGTH ico_hits n_ico_hits)
  if(n_ico_hits EQUAL 1 AND ico_body MATCHES "if \\(vlSelf->__VicoTriggered\\.at\\(0U\\)\\) {")
    string(REPLACE "vlSelf->__VicoTriggered.at(0U)" "true" ico_direct "${ico_body}")
    without_activity(ico_direct "${ico_direct}")
    called(ico_direct_fns "${ico_direct}")
    set(ico_direct_low "${ico_direct}")
    set(ico_driven_low "${ico_direct}")
    set(ico_nothing_low "${ico_direct}")
    set(ico_bare_low "${ico_direct}")
    set(bare_dropped "")
    set(ico_decls "")
    foreach(f IN LISTS ico_direct_fns)
      string(APPEND ico_decls "void ${MODEL}___024root___${f}(${MODEL}___024root*);\n")
      # The same function with the clock and the reset low (settle_low__<f>,
      # in V<block>_settle.cpp, compiled with the model): the settle runs
      # with clk low, and after the reset with rst low; in the input region
      # clk is read by the gated clocks' latches (open while it is low) and
      # nets (clk AND the latch), rst by the latches' enables (rst OR the
      # unit's work), and under toggle coverage by their toggle counts: each
      # then a constant. The settle takes the model's own function whenever
      # clk or rst is high.
      fn_body(b ${f})
      with_low(low_body "${b}" "clk;rst")
      if(settle_low_wanted AND NOT low_body STREQUAL "")
        add_low_copy(settle_low ${f} "${low_body}" ico_decls)
        # and a copy with every input handshake's valid low as well
        # (settle_idle__<f>), which the edge takes in a cycle that offers
        # nothing: most of a pipeline's settles
        set(settle_call "${MODEL}___024root___settle_low__${f}(vlSelf);")
        set(nothing_call "${settle_call}")   # (what a caller that drove no valid takes)
        add_further_copy(idle_body settle_idle ${f} "${b}" "clk;rst" "${idle_valids}" "${low_body}")
        if(NOT idle_body STREQUAL "")
          set(idle_call "${MODEL}___024root___settle_idle__${f}(vlSelf);")
          # and, for a block that names them (blocks.json settle_quiet), a
          # copy with its quiet registers 0 as well (settle_quiet__<f>),
          # taken in an idle cycle while they are: a cycle in which only
          # the units behind its front end work
          add_further_copy(quiet_body settle_quiet ${f} "${b}" "clk;rst;${idle_valids}" "${quiet_regs}" "${idle_body}")
          if(NOT quiet_body STREQUAL "")
            # and one per quiet register with every other one 0
            # (settle_quiet_<i>__<f>): an idle cycle in which one unit of the
            # front end holds something
            set(i 0)
            foreach(r IN LISTS quiet_regs)
              set(others "${quiet_regs}")
              list(REMOVE_ITEM others ${r})
              add_guarded_copy(idle_call settle_quiet_${i} ${f} "${b}" "clk;rst;${idle_valids}" "${others}" "${idle_body}")
              math(EXPR i "${i} + 1")
            endforeach()
            # (the copy with all of them 0 tested first, generated above)
            guard_call(idle_call settle_quiet ${f} "${quiet_regs}")
          endif()
          # and, for a block that names them (blocks.json settle_alone), a
          # copy per valid with every other valid low (settle_alone_<v>__<f>),
          # taken in a cycle that offers only that handshake
          foreach(v IN LISTS alone_valids)
            set(others "${idle_valids}")
            list(REMOVE_ITEM others ${v})
            add_guarded_copy(settle_call settle_alone_${v} ${f} "${b}" "clk;rst" "${others}" "${low_body}")
          endforeach()
          set(settle_call "if (!(${any_valid})) { ${idle_call} } else ${settle_call}")
          set(nothing_call "${idle_call}")
        endif()
        # and, for a block that names one (blocks.json settle_driven), a copy
        # with every other valid low (settle_driven__<f>), which a caller
        # that drove that valid alone takes without testing the ports
        if(DEFINED SETTLE_DRIVEN AND NOT SETTLE_DRIVEN STREQUAL "")
          set(driven_call "${MODEL}___024root___settle_low__${f}(vlSelf);")
          add_further_copy(driven_body settle_driven ${f} "${b}" "clk;rst" "${driven_others}" "${low_body}")
          set(bare_call "${driven_call}")
          if(NOT driven_body STREQUAL "")
            set(driven_call "${MODEL}___024root___settle_driven__${f}(vlSelf);")
            set(bare_call "${driven_call}")
            # and, for a block that names the outputs such a caller reads
            # (blocks.json settle_driven_reads), that copy without the
            # stores of the others (settle_bare__<f>)
            if(settle_reads)
              without_unread_stores(bare_body dropped ${f} "${driven_body}")
              if(NOT bare_body STREQUAL "")
                add_low_copy(settle_bare ${f} "${bare_body}" ico_decls)
                set(bare_call "${MODEL}___024root___settle_bare__${f}(vlSelf);")
                list(APPEND bare_dropped ${dropped})
              endif()
            endif()
          endif()
          string(REPLACE "${MODEL}___024root___${f}(vlSelf);"
                 "if (VL_LIKELY(!vlSelf->rst)) { ${driven_call} } else ${MODEL}___024root___${f}(vlSelf);"
                 ico_driven_low "${ico_driven_low}")
          string(REPLACE "${MODEL}___024root___${f}(vlSelf);"
                 "if (VL_LIKELY(!vlSelf->rst)) { ${bare_call} } else ${MODEL}___024root___${f}(vlSelf);"
                 ico_bare_low "${ico_bare_low}")
          # and the idle copies' choice without the test of the valids, for
          # a caller that drove none
          string(REPLACE "${MODEL}___024root___${f}(vlSelf);"
                 "if (VL_LIKELY(!vlSelf->rst)) { ${nothing_call} } else ${MODEL}___024root___${f}(vlSelf);"
                 ico_nothing_low "${ico_nothing_low}")
        endif()
        string(REPLACE "${MODEL}___024root___${f}(vlSelf);"
               "if (VL_LIKELY(!vlSelf->rst)) { ${settle_call} } else ${MODEL}___024root___${f}(vlSelf);"
               ico_direct_low "${ico_direct_low}")
        string(REPLACE "${MODEL}___024root___${f}(vlSelf);"
               "if (VL_LIKELY(!(vlSelf->clk | vlSelf->rst))) ${MODEL}___024root___settle_low__${f}(vlSelf); else ${MODEL}___024root___${f}(vlSelf);"
               ico_direct "${ico_direct}")
      endif()
    endforeach()
    set(driven_entry "  static constexpr bool kDriven = false;
  static constexpr bool kBare = false;")
    if(DEFINED SETTLE_DRIVEN AND NOT SETTLE_DRIVEN STREQUAL "")
      list(TRANSFORM driven_others PREPEND "vlSelf->" OUTPUT_VARIABLE others)
      list(JOIN others " | " others_any)
      set(bare_entry "  static constexpr bool kBare = false;")
      if(bare_dropped)
        list(REMOVE_DUPLICATES bare_dropped)
        list(JOIN bare_dropped "\", \"" dropped_names)
        string(REPLACE ";" ", " reads_names "${settle_reads}")
        set(bare_entry "  // the same for a caller that reads, before the edge, no output but
  // ${reads_names} (blocks.json settle_driven_reads): the stores of
  // kBareLeft are left out, which hold stale values until another settle
  static constexpr bool kBare = true;
  static constexpr const char* kBareLeft[] = {\"${dropped_names}\", nullptr};
  static void run_clock_low_driven_bare(${MODEL}___024root* vlSelf) {
${ico_bare_low}
  }")
      endif()
      set(driven_entry "  static constexpr bool kDriven = true;
  // the same where the caller has driven ${SETTLE_DRIVEN} alone of the input valids
  static void run_clock_low_driven(${MODEL}___024root* vlSelf) {
${ico_driven_low}
  }
  // the same where the caller has driven none of the input valids
  static void run_clock_low_nothing(${MODEL}___024root* vlSelf) {
${ico_nothing_low}
  }
${bare_entry}
  // whether the ports hold either case (for a test that checks a caller's word)
  static bool drove_alone(const ${MODEL}___024root* vlSelf) {
    return vlSelf->${SETTLE_DRIVEN} && !(${others_any});
  }
  static bool drove_nothing(const ${MODEL}___024root* vlSelf) {
    return !(${any_valid});
  }")
    endif()
    set(settle_ico "
// The clock-low settle's input region: _eval_ico with its one trigger set,
// its functions taken with the clock and the reset low where generated
// (V*_settle.cpp) and both are low.
${ico_decls}template <>
struct ubsim::SettleIco<${MODEL}> {
  static constexpr bool kDirect = true;
  static constexpr bool kMask = false;   // run*() return the edge's trigger mask (below)
  static void run(${MODEL}___024root* vlSelf) {
${ico_direct}
  }
  // the same where the caller has just set clk low (VerilatedBlock::edge)
  static void run_clock_low(${MODEL}___024root* vlSelf) {
${ico_direct_low}
  }
${driven_entry}
};
")
  endif()
  if(NOT ico_body STREQUAL "" AND NOT nba_body STREQUAL "")
    called(ico_fns "${ico_body}")
    set(ico_set "")
    foreach(f IN LISTS ico_fns)
      fn_body(b ${f})
      assigned(a "${b}")
      list(APPEND ico_set ${a})
    endforeach()
    called(nba_fns "${nba_body}")
    set(decls "")
    set(skipped "")
    set(stale "")
    foreach(f IN LISTS nba_fns)
      string(APPEND decls "void ${MODEL}___024root___${f}(${MODEL}___024root*);\n")
      fn_body(b ${f})
      plain_assignments(plain "${b}")
      if(NOT plain)
        continue()
      endif()
      assigned(a "${b}")
      set(dup TRUE)
      foreach(n IN LISTS a)
        if(NOT n IN_LIST ico_set)
          set(dup FALSE)
          break()
        endif()
      endforeach()
      if(dup AND a)
        list(APPEND skipped ${f})
        foreach(n IN LISTS a)
          if(NOT n MATCHES "__DOT__" AND NOT n MATCHES "^__")
            list(APPEND stale "\"${n}\"")
          endif()
        endforeach()
      endif()
    endforeach()
    list(LENGTH skipped n_skipped)
    if(n_skipped GREATER 0)
      foreach(f IN LISTS skipped)
        string(REGEX REPLACE "\n[ ]*${MODEL}___024root___${f}\\(vlSelf\\);" "" nba_body "${nba_body}")
      endforeach()
      list(REMOVE_DUPLICATES stale)
      list(APPEND stale "nullptr")
      string(REPLACE ";" ", " stale "${stale}")
      string(REPLACE ";" " " skipped_names "${skipped}")
      # The same region with the edge's triggers as a bit mask (bit n:
      # trigger n fired), not the scheduler's trigger vector: each test one
      # AND of a register. Without the waveform activity flags: a traced
      # block's edge takes eval() (verilated_block.h), never this.
      string(REGEX REPLACE "vlSelf->__VnbaTriggered\\.at\\(([0-9a-fx]+)U\\)" "(t & (1U << \\1U))" masked_body "${nba_body}")
      without_activity(masked_body "${masked_body}")
      if(masked_body MATCHES "__VnbaTriggered")
        message(FATAL_ERROR "gen_ports: cannot read ${MODEL}'s _eval_nba")
      endif()
      # The activity outputs (busy, quiet: whether a bridge may let the block
      # sleep; no logic of the block reads them) leave the masked region for
      # EdgeNba<M>::activity(), which the edge runs after it unless its
      # caller reads neither (ClockEdge<M>::rise<kGiven, false>: a driver
      # that steps every cycle, models/drivers/burst.h). A function moves
      # when it is plain assignments, each member it assigns is an activity
      # output or an internal signal that no other function of the fast path
      # (the input region, which the settle copies come from, and the NBA
      # region) mentions (found to a fixed point: the combinational OR of
      # the units' busy flags that only busy and quiet read), and it reads
      # nothing the input region assigns. What it reads is then registers
      # and the NBA region's own combinational signals, which hold their
      # values for the new state once the region has run, whichever
      # functions it ran: so activity() runs its functions without their
      # trigger tests (cheaper than the tests, measured), in the region's
      # order, after any edge and as a refresh.
      # whether a function of `fns` other than `f` and those of `skip`
      # mentions member `sig` (their bodies: fast_body_<g>)
      function(mentioned_by_others out sig f fns skip)
        set(${out} FALSE PARENT_SCOPE)
        foreach(g IN LISTS fns)
          if(g STREQUAL f OR g IN_LIST skip)
            continue()
          endif()
          if("${fast_body_${g}}" MATCHES "vlSelf->${sig}([^A-Za-z0-9_]|$)")
            set(${out} TRUE PARENT_SCOPE)
            return()
          endif()
        endforeach()
      endfunction()
      set(activity_ports busy quiet)
      set(activity_fns "")
      set(fast_fns ${ico_fns} ${nba_fns})
      list(REMOVE_DUPLICATES fast_fns)
      foreach(g IN LISTS fast_fns)
        fn_body(fast_body_${g} ${g})
      endforeach()
      called(masked_calls "${masked_body}")
      foreach(pass RANGE 0 20)   # (a bound, not a while())
        set(grew FALSE)
        foreach(f IN LISTS masked_calls)
          if(f IN_LIST activity_fns)
            continue()
          endif()
          set(b "${fast_body_${f}}")
          plain_assignments(plain "${b}")
          if(NOT plain OR b MATCHES "vlSymsp|ConstPool")
            continue()
          endif()
          assigned(a "${b}")
          set(ok TRUE)
          if(NOT a)
            set(ok FALSE)
          endif()
          foreach(sig IN LISTS ico_set)
            if(b MATCHES "vlSelf->${sig}([^A-Za-z0-9_]|$)")
              set(ok FALSE)
              break()
            endif()
          endforeach()
          foreach(sig IN LISTS a)
            if(NOT ok)
              break()
            endif()
            if(sig IN_LIST activity_ports)
              continue()
            endif()
            if(NOT sig MATCHES "__DOT__|^__V")
              set(ok FALSE)
              break()
            endif()
            mentioned_by_others(named ${sig} ${f} "${fast_fns}" "${activity_fns}")
            if(named)
              set(ok FALSE)
            endif()
          endforeach()
          if(ok)
            list(APPEND activity_fns ${f})
            set(grew TRUE)
          endif()
        endforeach()
        if(NOT grew)
          break()
        endif()
      endforeach()
      # Of those, a function none of whose stores anything reads (neither
      # an activity output nor a signal another of them mentions: no
      # function of the fast path mentions it either, above) is left out
      # of activity() as well, to a fixed point: a block's loop variable,
      # whose last value Verilator stores, is such a store.
      set(dead_fns "")
      foreach(pass RANGE 0 20)   # (a bound, not a while())
        set(grew FALSE)
        foreach(f IN LISTS activity_fns)
          if(f IN_LIST dead_fns)
            continue()
          endif()
          assigned(a "${fast_body_${f}}")
          set(dead TRUE)
          foreach(sig IN LISTS a)
            if(sig IN_LIST activity_ports)
              set(dead FALSE)
              break()
            endif()
            mentioned_by_others(named ${sig} ${f} "${activity_fns}" "${dead_fns}")
            if(named)
              set(dead FALSE)
              break()
            endif()
          endforeach()
          if(dead)
            list(APPEND dead_fns ${f})
            set(grew TRUE)
          endif()
        endforeach()
        if(NOT grew)
          break()
        endif()
      endforeach()
      set(activity_body "")
      set(activity_names "")
      foreach(f IN LISTS masked_calls)   # (in the region's order)
        if(NOT f IN_LIST activity_fns)
          continue()
        endif()
        string(REGEX REPLACE "\n[ ]*${MODEL}___024root___${f}\\(vlSelf\\);" "" masked_body "${masked_body}")
        if(f IN_LIST dead_fns)
          string(APPEND activity_names " (${f}: no reader)")
          continue()
        endif()
        string(REGEX REPLACE "(^|\n)[ ]*if \\(false && vlSelf\\) {}[^\n]*" "" b "${fast_body_${f}}")
        string(REGEX REPLACE "(^|\n)[ ]*// Body[^\n]*" "" b "${b}")
        string(APPEND activity_body "    // ${f}${b}\n")
        string(APPEND activity_names " ${f}")
      endforeach()
      # (a test left with no call: gone)
      string(REGEX REPLACE "\n[ ]*if \\([^{}]*\\) {[ \n]*}" "" masked_body "${masked_body}")
      if(activity_body STREQUAL "")
        set(activity_def "  static constexpr bool kActivity = false;")
      else()
        set(activity_def "  // The activity outputs' logic (${activity_names} ), left out of run_masked:
  // run after it (ClockEdge<M>::rise), or not at all by a caller that reads
  // neither busy nor quiet; run again, it recomputes them from the state.
  static constexpr bool kActivity = true;
  static void activity(${MODEL}___024root* vlSelf) {
${activity_body}  }")
      endif()
      # Its functions with the reset low (edge_low__<f>, in V*_settle.cpp),
      # where the fast edge finds rst low (after the reset, always), and the
      # clock high: each register's reset branch and each latch's update
      # then a constant, and the temporaries the function writes before it
      # reads them its locals (localized()). Only
      # functions that read rst or have such temporaries, and are no larger
      # than edge_low_max_lines (a bound on the settle file's compile time:
      # the order tracker's window logic at the default window is 7,055
      # lines in the UB pipeline and 12,350 in the RoCE one, whose settle
      # file then compiles in 4.5 s, 16 s with the edge switch below; at a
      # wider window, a build variant, the model's own function is taken).
      set(masked_body_low "${masked_body}")
      set(edge_low_decls "")
      if(settle_low_wanted)
        called(masked_fns "${masked_body}")
        foreach(f IN LISTS masked_fns)
          fn_body(masked_body_${f} ${f})
        endforeach()
        set(later_fns ${masked_fns})
        foreach(f IN LISTS masked_fns)
          set(b "${masked_body_${f}}")
          # (what the edge may run after f: without_settled_stores)
          list(REMOVE_AT later_fns 0)
          set(later "")
          foreach(g IN LISTS later_fns)
            string(APPEND later "${masked_body_${g}}")
          endforeach()
          string(REGEX MATCHALL "\n" nl "${b}")
          list(LENGTH nl n_lines)
          if(n_lines LESS_EQUAL ${edge_low_max_lines})
            # (clk high: the copies run only at the fast rising edge, where a
            # latch's `if (~clk)` update then drops out)
            with_values(low_body "${b}" "rst=0U;clk=1U")
            if(low_body STREQUAL "")
              # (one that does not read rst: copied where the copy takes
              # temporaries as locals, localized() below, or leaves stores
              # to the settle)
              localized(local_body ${f} "${b}")
              without_settled_stores(kept_body "${b}" "${later}")
              if(NOT local_body STREQUAL b OR NOT kept_body STREQUAL b)
                set(low_body "${kept_body}")
              endif()
            else()
              without_settled_stores(low_body "${low_body}" "${later}")
            endif()
            if(NOT low_body STREQUAL "")
              add_low_copy(edge_low ${f} "${low_body}" edge_low_decls)
              string(REPLACE "${MODEL}___024root___${f}(vlSelf);" "${MODEL}___024root___edge_low__${f}(vlSelf);"
                     masked_body_low "${masked_body_low}")
              localized(low_body ${f} "${low_body}")
              set(edge_body_${f} "${low_body}")
              set(edge_call_${f} edge_low__${f})
            endif()
          endif()
          if(NOT DEFINED edge_call_${f})
            set(edge_body_${f} "${b}")
            set(edge_call_${f} ${f})
          endif()
        endforeach()
      endif()
      # (the switch where the body allows one, else its chain of tests)
      mask_switch(switched_low "${masked_body_low}")
      if(switched_low STREQUAL "")
        set(switched_low "${masked_body_low}")
      endif()
      # A switch of more than 1,024 cases stays out of line: the bridges'
      # flattened edge loops would each take a copy (1.2 MB of code for the
      # UB pipeline's 2,048), for one call per edge (9 instructions per
      # ub-async read, measured).
      set(masked_attr "")
      string(REGEX MATCHALL "\n      case " case_labels "${switched_low}")
      list(LENGTH case_labels n_cases)
      set(chain_def "  static constexpr bool kChain = false;")
      # For such a block that a driver clocks in every cycle at saturation
      # (one that names settle_driven_reads: the burst driver's UB send
      # pipeline), the same region as its chain of trigger tests with each
      # function's body inline (<model>___024root___edge_chain in
      # V<block>_settle.cpp, EdgeNba<M>::run_chain): no call per function,
      # a test per block of the chain. Cheaper than the switch's calls
      # where most units are clocked (-119 per ub packet), dearer where few
      # are (+586 per ub-async read through the bridges), so taken only by
      # such a driver (EdgeCaller::EveryCycle, clock_edge.h). Not for a
      # switch that takes its short functions inline (below: the RoCE
      # pipeline's, +51 per roce packet with the chain; measured,
      # docs/performance.md).
      if(n_cases GREATER 1024 AND settle_reads AND settle_low_wanted AND DEFINED SETTLE_OUT)
        set(chain_body "${masked_body_low}")
        foreach(f IN LISTS masked_fns)
          string(REPLACE "${MODEL}___024root___${edge_call_${f}}(vlSelf);" "{ // ${f}
${edge_body_${f}}
    }" chain_body "${chain_body}")
        endforeach()
        called(chain_left "${chain_body}")
        if(chain_left)
          message(FATAL_ERROR "gen_ports: ${MODEL}'s edge chain still calls ${chain_left}")
        endif()
        string(APPEND settle_low_cpp "
// the edge's NBA region as its chain of trigger tests, each function's body inline (EdgeNba<M>::run_chain)
void ${MODEL}___024root___edge_chain(${MODEL}___024root* vlSelf, uint32_t t) {
    ${MODEL}__Syms* const __restrict vlSymsp VL_ATTR_UNUSED = vlSelf->vlSymsp;
${chain_body}
}
")
        string(APPEND edge_low_decls "void ${MODEL}___024root___edge_chain(${MODEL}___024root*, uint32_t);\n")
        set(chain_def "  // the same as its chain of trigger tests, each function inline, for a
  // driver that clocks the block in every cycle (EdgeCaller::EveryCycle)
  static constexpr bool kChain = true;
  static void run_chain(${MODEL}___024root* vlSelf, uint32_t t) {
    if (VL_UNLIKELY(vlSelf->rst)) {
      run_masked(vlSelf, t);
      return;
    }
    ${MODEL}___024root___edge_chain(vlSelf, t);
  }")
      endif()
      if(n_cases GREATER 1024)
        set(masked_attr "[[gnu::noinline]] ")
      elseif(n_cases GREATER 256 AND settle_low_wanted AND DEFINED SETTLE_OUT)
        # One of 257 to 1,024 cases (the RoCE pipelines') takes each short
        # function it calls (at most edge_inline_max_lines, its copy where
        # one is made) inline: a call costs as much as such a body. The
        # switch is then out of line and compiled once, with the model
        # (<model>___024root___edge_switch in V<block>_settle.cpp), not in
        # every file that steps the block. Larger and smaller switches
        # measured no gain (docs/performance.md, sixth session of
        # 2026-12-06). Not a function that reads the symbol table or the
        # constant pool (the switch's file would have to declare them).
        set(inline_defs "")
        foreach(f IN LISTS masked_fns)
          set(ib "${edge_body_${f}}")
          string(REGEX MATCHALL "\n" nl "${ib}")
          list(LENGTH nl n_lines)
          if(n_lines GREATER ${edge_inline_max_lines} OR ib MATCHES "vlSymsp|ConstPool")
            continue()
          endif()
          string(APPEND inline_defs "static inline void ${MODEL}___024root___inline__${f}(${MODEL}___024root* vlSelf) {
${ib}
}
")
          set(inline_call "${MODEL}___024root___inline__${f}(vlSelf);")
          string(REPLACE "${MODEL}___024root___${edge_call_${f}}(vlSelf);" "${inline_call}" switched_low "${switched_low}")
          # (so the reset keeps the model's own functions: run_masked_in_reset)
          string(REPLACE "${MODEL}___024root___${edge_call_${f}}(vlSelf);" "${inline_call}" masked_body_low "${masked_body_low}")
        endforeach()
        if(NOT inline_defs STREQUAL "")
          string(APPEND settle_low_cpp "
${decls}${edge_low_decls}${inline_defs}
// the edge's NBA region as one switch over its trigger mask (EdgeNba<M>::run_masked)
void ${MODEL}___024root___edge_switch(${MODEL}___024root* vlSelf, uint32_t t) {
${switched_low}
}
")
          set(switched_low "    ${MODEL}___024root___edge_switch(vlSelf, t);")
          string(APPEND edge_low_decls "void ${MODEL}___024root___edge_switch(${MODEL}___024root*, uint32_t);\n")
        endif()
      endif()
      if(masked_body_low STREQUAL masked_body)
        set(run_masked "  // the same, the edge's triggers given as a mask (EdgeTriggers<M>)
  ${masked_attr}static void run_masked(${MODEL}___024root* vlSelf, uint32_t t) {
${switched_low}
  }")
      else()
        set(run_masked "  // the same, the edge's triggers given as a mask (EdgeTriggers<M>), its
  // functions with the reset low where generated, while rst is low (always
  // at a fast edge: the reset steps through eval()); the model's own out of
  // line otherwise
  [[gnu::cold, gnu::noinline]] static void run_masked_in_reset(${MODEL}___024root* vlSelf, uint32_t t) {
${masked_body}
  }
  ${masked_attr}static void run_masked(${MODEL}___024root* vlSelf, uint32_t t) {
    if (VL_UNLIKELY(vlSelf->rst)) {
      run_masked_in_reset(vlSelf, t);
      return;
    }
${switched_low}
  }")
      endif()
      set(nba "
// The rising edge's NBA region without ${n_skipped} combinational functions the
// next clock-low settle recomputes (${skipped_names}).
${decls}${edge_low_decls}template <>
struct ubsim::EdgeNba<${MODEL}> {
  static constexpr int kSkipped = ${n_skipped};
  static constexpr const char* kStale[] = {${stale}};   // ports left as they were before the edge
${activity_def}
  static void run(${MODEL}___024root* vlSelf) {
${nba_body}
  }
${run_masked}
${chain_def}
};
")
      # The edge's triggers as a bit mask, for a model whose active region
      # does nothing (no process runs there, so the edge can go from the
      # triggers straight to its NBA region) and whose every trigger is the
      # clock's rising edge, the reset's falling edge or a gated clock's
      # rising edge: at a fast rising edge the mask follows from the enables
      # alone. The settle left clk and every gated clock low (gclk = clk AND
      # its latch) and rst unchanged, so clk's trigger fires, rst's does not,
      # and a gated clock's fires where its latch is set: what
      # _eval_triggers__act computes from the values the settle recorded
      # (such a block's settle then records nothing). Any other trigger: no
      # mask, the edge takes the generated functions.
      fn_body(act_body eval_act)
      string(REGEX REPLACE "(^|\n)[ ]*if \\(false && vlSelf\\) {}[^\n]*" "" act_rest "${act_body}")
      string(STRIP "${act_rest}" act_rest)
      fn_body(trig_body eval_triggers__act)
      string(FIND "${trig_body}" "\n#ifdef VL_DEBUG" dbg)
      if(NOT dbg EQUAL -1)
        string(SUBSTRING "${trig_body}" 0 ${dbg} trig_body)
      endif()
      string(REGEX MATCHALL "__VactTriggered\\.at\\([0-9a-fx]+U\\)" trig_hits "${trig_body}")
      list(LENGTH trig_hits n_trig)
      if(act_rest STREQUAL "" AND n_trig GREATER 0 AND n_trig LESS_EQUAL 32)
        string(REGEX MATCHALL "vlSelf->__VactTriggered\\.at\\([0-9a-fx]+U\\) = [^;]*" trig_stmts "${trig_body}")
        set(from_enables true)
        set(rise_body "")
        set(rise_const 0)
        set(n_gated 0)
        set(latch_bits "")
        foreach(st IN LISTS trig_stmts)
          string(REGEX MATCH "at\\(([0-9a-fx]+)U\\) = (.*)" _ "${st}")
          set(bit ${CMAKE_MATCH_1})
          string(REGEX REPLACE "[ \n]" "" e "${CMAKE_MATCH_2}")
          if(e STREQUAL "((IData)(vlSelf->clk)&(~(IData)(vlSelf->__Vtrigrprev__TOP__clk)))")
            math(EXPR rise_const "${rise_const} | (1 << ${bit})")
          elseif(e STREQUAL "((~(IData)(vlSelf->rst))&(IData)(vlSelf->__Vtrigrprev__TOP__rst))")
            # never at a fast edge
          elseif(e MATCHES "^\\(\\(IData\\)\\(vlSelf->([A-Za-z0-9_]+)\\)&\\(~\\(IData\\)\\(vlSelf->__Vtrigrprev__TOP__([A-Za-z0-9_]+)\\)\\)\\)$"
                 AND CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2 AND CMAKE_MATCH_1 IN_LIST gate_nets)
            set(latch ${gate_latch_${CMAKE_MATCH_1}})
            string(APPEND rise_body "    t |= static_cast<uint32_t>(r->${latch}) << ${bit}U;\n")
            list(APPEND latch_bits "${latch}=${bit}")
            math(EXPR n_gated "${n_gated} + 1")
          else()
            set(from_enables false)
          endif()
        endforeach()
        list(LENGTH trig_stmts n_stmts)
        if(from_enables AND n_stmts EQUAL n_trig)   # (every trigger read)
          set(mask_from_enables TRUE)
          string(APPEND nba "
// The edge's triggers as a bit mask (bit n: trigger n of _eval_triggers__act
// fired) at a fast rising edge (clock_edge.h), from the gated clocks'
// latches. The gated clocks are left as the settle computed them: only a
// trigger evaluation reads them, which this mask replaces (eval() computes
// them afresh).
template <>
struct ubsim::EdgeTriggers<${MODEL}> {
  static constexpr bool kFromEnables = true;
  static constexpr int kGated = ${n_gated};
  static uint32_t rise(${MODEL}___024root* r) {
    uint32_t t = ${rise_const}U;
${rise_body}    return t;
  }
};
")
        endif()
      endif()
    endif()
  endif()
endif()
# Where the edge's triggers come from the latches (EdgeTriggers<M> above,
# used by a block registered with its input logic at the settle; any
# other's edge compares the nets with their record), a gated clock's net
# is read only by the trigger evaluation and its record, which the fast
# edge never runs: the copies leave its stores out (the settle's with the
# clock low, the edge's). Checked per net: every other mention in the
# model's code is a store.
if(mask_from_enables AND edge_from_latches)
  string(REGEX REPLACE "vlSelf->__VactTriggered\\.at\\([0-9a-fx]+U\\) = [^;]*;" "" rest_code "${code}")
  string(REGEX REPLACE "vlSelf->__Vtrigrprev__TOP__[A-Za-z0-9_]+[ \n]*= [^;]*;" "" rest_code "${rest_code}")
  foreach(net IN LISTS gate_nets)
    string(REGEX MATCHALL "vlSelf->${net}[^A-Za-z0-9_]" all_uses "${rest_code}")
    string(REGEX MATCHALL "vlSelf->${net}[ \n]*=[^=]" stores "${rest_code}")
    list(LENGTH all_uses n_uses)
    list(LENGTH stores n_stores)
    if(n_uses EQUAL n_stores)
      string(REGEX REPLACE "\n[ ]*vlSelf->${net}[ \n]*=[^=][^;]*;" "" settle_low_cpp "${settle_low_cpp}")
    endif()
  endforeach()
endif()
# The settle copies return the edge's trigger mask (SettleIco<M>::kMask)
# where the edge takes it from the latches (EdgeTriggers<M>, a block
# registered with its input logic at the settle) and the input region is
# one function: each copy adds each latch's enable to the mask where it
# would have stored it, and stores it only where it reads it again. So the
# edge does not load the latches back (a load, a shift and an or per gated
# clock per cycle). The latches themselves are read only by their gated
# clocks' nets, whose stores the copies leave out (above), and by the
# trigger evaluation the fast edge does not run; a settle through the
# model's own functions (the reset, eval()) stores them all, and the mask
# is then read from them. Each copy must assign each latch exactly once:
# otherwise no copy returns a mask.
set(settle_mask FALSE)
if(mask_from_enables AND edge_from_latches AND settle_low_wanted AND NOT settle_ico STREQUAL "")
  list(LENGTH ico_direct_fns n_ico_fns)
  if(n_ico_fns EQUAL 1)
    set(settle_mask TRUE)
    set(masked_cpp "")
    set(rest "${settle_low_cpp}")
    set(copy_head "\nvoid ${MODEL}___024root___settle_")
    foreach(i RANGE 0 1000)   # (a bound, not a while())
      string(FIND "${rest}" "${copy_head}" at)
      if(at EQUAL -1)
        break()
      endif()
      string(SUBSTRING "${rest}" 0 ${at} before)
      string(APPEND masked_cpp "${before}")
      string(SUBSTRING "${rest}" ${at} -1 rest)
      string(FIND "${rest}" "\n}\n" end)
      math(EXPR end "${end} + 3")
      string(SUBSTRING "${rest}" 0 ${end} fn)
      string(SUBSTRING "${rest}" ${end} -1 rest)
      foreach(lb IN LISTS latch_bits)
        string(REPLACE "=" ";" lb "${lb}")
        list(GET lb 0 latch)
        list(GET lb 1 bit)
        string(REGEX MATCHALL "vlSelf->${latch}[ \n]*=[^=]" stores "${fn}")
        string(REGEX MATCHALL "vlSelf->${latch}[^A-Za-z0-9_]" uses "${fn}")
        list(LENGTH stores n_stores)
        list(LENGTH uses n_uses)
        if(NOT n_stores EQUAL 1)
          set(settle_mask FALSE)
        elseif(n_uses EQUAL 1)
          string(REGEX REPLACE "vlSelf->${latch}[ \n]*=[ \n]*([^;]*);"
                 "__Vedge_mask |= static_cast<uint32_t>(\\1) << ${bit}U;" fn "${fn}")
        else()
          string(REGEX REPLACE "(vlSelf->${latch}[ \n]*=[ \n]*[^;]*;)"
                 "\\1 __Vedge_mask |= static_cast<uint32_t>(vlSelf->${latch}) << ${bit}U;" fn "${fn}")
        endif()
      endforeach()
      string(REGEX REPLACE "^\nvoid ([^\n]*{\n)" "\nuint32_t \\1    uint32_t __Vedge_mask = ${rise_const}U;\n" fn "${fn}")
      string(REGEX REPLACE "\n}\n$" "\n    return __Vedge_mask;\n}\n" fn "${fn}")
      string(APPEND masked_cpp "${fn}")
    endforeach()
    string(APPEND masked_cpp "${rest}")
    if(settle_mask)
      set(settle_low_cpp "${masked_cpp}")
      list(GET ico_direct_fns 0 f)
      set(own "${MODEL}___024root___${f}(vlSelf);")
      string(REGEX REPLACE "\nvoid (${MODEL}___024root___settle_[A-Za-z0-9_]+\\(${MODEL}___024root\\*\\);)"
             "\nuint32_t \\1" settle_ico "${settle_ico}")
      string(REGEX REPLACE "(${MODEL}___024root___settle_[A-Za-z0-9_]+__${f}\\(vlSelf\\);)" "return \\1"
             settle_ico "${settle_ico}")
      string(REPLACE "${own}" "{ ${own} return ubsim::EdgeTriggers<${MODEL}>::rise(vlSelf); }" settle_ico "${settle_ico}")
      string(REGEX REPLACE "\n  static void (run[a-z_]*\\()" "\n  static uint32_t \\1" settle_ico "${settle_ico}")
      string(REPLACE "  static constexpr bool kMask = false;" "  static constexpr bool kMask = true; " settle_ico "${settle_ico}")
    endif()
  endif()
endif()
file(WRITE "${OUT}.tmp" "// Generated by rtl/gen_ports.cmake from ${MODEL}.h: the model's ports in declaration order.
#pragma once
#include \"${MODEL}.h\"
#include \"port_table.h\"

template <>
struct ubsim::Ports<${MODEL}> {
  using M = ${MODEL};
  static inline const ubsim::PortInfo list[] = {
${rows}  };
};
${gated}${low}${nba}${settle_ico}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
# The input region's functions with the clock and the reset low and the
# edge's NBA functions with the reset low (SettleIco<M>, EdgeNba<M> above),
# compiled with the model's own options.
if(DEFINED SETTLE_OUT)
  # The copies run only on the fast path, and ubsim never turns the
  # context's assertion switch off (every experiment runs with its
  # assertions): an immediate assertion in a copy tests its condition
  # without loading the switch first (two loads per assertion per call).
  # The model's own functions, which the reset and a traced block run,
  # still read it.
  string(REPLACE "vlSymsp->_vm_contextp__->assertOn()" "true" settle_low_cpp "${settle_low_cpp}")
  # the constant pool the copies may read, declared as the model's files do
  set(pool_decls "")
  if(NOT settle_low_cpp STREQUAL "")
    string(REGEX MATCHALL "\nextern const [^;\n]*${MODEL}__ConstPool__[A-Za-z0-9_]*" pool_hits "${code}")
    list(REMOVE_DUPLICATES pool_hits)
    foreach(h IN LISTS pool_hits)
      string(APPEND pool_decls "${h};")
    endforeach()
  endif()
  file(WRITE "${SETTLE_OUT}.tmp" "// Generated by rtl/gen_ports.cmake from ${MODEL}'s generated C++: its input region with the
// clock and reset low, its edge's NBA functions with the reset low and the clock high, the
// assertions' switch on.
#include \"verilated.h\"
#include \"${MODEL}__Syms.h\"
#include \"${MODEL}___024root.h\"
${pool_decls}
${settle_low_cpp}")
  file(COPY_FILE "${SETTLE_OUT}.tmp" "${SETTLE_OUT}" ONLY_IF_DIFFERENT)
  file(REMOVE "${SETTLE_OUT}.tmp")
endif()
