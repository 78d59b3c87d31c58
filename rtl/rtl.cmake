# Verilates each RTL top once into one static library (one copy of the
# Verilator runtime), plain C++ models stepped by the SystemC bridges.
set(UBSIM_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})
set(UBSIM_RTL_COMMON
  ${UBSIM_RTL_DIR}/pipe_reg.sv
  ${UBSIM_RTL_DIR}/stage_chain.sv
  ${UBSIM_RTL_DIR}/stream_arb2.sv
  ${UBSIM_RTL_DIR}/tp_lookup.sv
  ${UBSIM_RTL_DIR}/psn_alloc_rmw.sv
  ${UBSIM_RTL_DIR}/flit_serializer.sv
  ${UBSIM_RTL_DIR}/ctx_gate.sv)

add_library(ubsim_rtl STATIC)
# The verilated models are the hot loop of every simulation.
target_compile_options(ubsim_rtl PRIVATE -O3)
set_target_properties(ubsim_rtl PROPERTIES POSITION_INDEPENDENT_CODE ON)
set(UBSIM_VERILATOR_ARGS -Wall --assert --x-assign fast --x-initial fast -O3)
# Only the send pipelines address contexts and serialize flits; only UB reads
# TP records in beats.
set(UBSIM_ARGS_ub_tx_pipeline -GORDER_SLOTS=${UBSIM_RTL_ORDER_SLOTS} -GORDER_WIN=${UBSIM_RTL_ORDER_WIN} -GMAX_CHAIN=${UBSIM_RTL_MAX_CHAIN} -GCTX_W=${UBSIM_RTL_CTX_W} -GMAX_BEATS=${UBSIM_RTL_MAX_BEATS}
    -GFLIT_BYTES=${UBSIM_RTL_FLIT_BYTES})
set(UBSIM_ARGS_roce_tx_pipeline -GORDER_SLOTS=${UBSIM_RTL_ORDER_SLOTS} -GORDER_WIN=${UBSIM_RTL_ORDER_WIN} -GMAX_CHAIN=${UBSIM_RTL_MAX_CHAIN} -GCTX_W=${UBSIM_RTL_CTX_W} -GFLIT_BYTES=${UBSIM_RTL_FLIT_BYTES})
set(UBSIM_ARGS_rx_pipeline -GMAX_CHAIN=${UBSIM_RTL_MAX_CHAIN})
set(UBSIM_ARGS_order_tracker -GSLOTS=${UBSIM_RTL_ORDER_SLOTS} -GWIN=${UBSIM_RTL_ORDER_WIN})
set(UBSIM_ARGS_ub_tx_multi -GMAX_CHAIN=${UBSIM_RTL_MAX_CHAIN} -GMAX_BEATS=${UBSIM_RTL_MAX_BEATS} -GFLIT_BYTES=${UBSIM_RTL_FLIT_BYTES} -GORDER_SLOTS=${UBSIM_RTL_ORDER_SLOTS} -GORDER_WIN=${UBSIM_RTL_ORDER_WIN})
set(UBSIM_ARGS_roce_tx_multi -GMAX_CHAIN=${UBSIM_RTL_MAX_CHAIN} -GFLIT_BYTES=${UBSIM_RTL_FLIT_BYTES} -GORDER_SLOTS=${UBSIM_RTL_ORDER_SLOTS} -GORDER_WIN=${UBSIM_RTL_ORDER_WIN})
set(UBSIM_ARGS_sack_sender -GMAX_WIN=${UBSIM_RTL_SACK_MAX_WIN})
set(UBSIM_ARGS_sack_receiver -GMAX_WIN=${UBSIM_RTL_SACK_MAX_WIN})
set(UBSIM_ARGS_ctx_cache -GMAX_ENTRIES=${UBSIM_RTL_CACHE_ENTRIES} -GMSHRS=${UBSIM_RTL_CACHE_MSHRS})

foreach(top ub_tx_pipeline roce_tx_pipeline rx_pipeline ctx_cache order_tracker ub_tx_multi roce_tx_multi sack_sender sack_receiver)
  set(extra_args ${UBSIM_VERILATOR_ARGS} ${UBSIM_ARGS_${top}})
  set(sources ${UBSIM_RTL_COMMON})
  if(top MATCHES "tx_")   # the send pipelines instantiate the order tracker
    list(APPEND sources ${UBSIM_RTL_DIR}/order_tracker.sv)
  endif()
  if(top STREQUAL "ub_tx_multi")
    list(APPEND sources ${UBSIM_RTL_DIR}/rr_select.sv ${UBSIM_RTL_DIR}/ub_tx_pipeline.sv)
  elseif(top STREQUAL "roce_tx_multi")
    list(APPEND sources ${UBSIM_RTL_DIR}/rr_select.sv ${UBSIM_RTL_DIR}/roce_tx_pipeline.sv)
  endif()
  verilate(ubsim_rtl TRACE_FST
    SOURCES ${sources} ${UBSIM_RTL_DIR}/${top}.sv
    TOP_MODULE ${top}
    PREFIX V${top}
    VERILATOR_ARGS ${extra_args})
endforeach()

# The context cache's parallel (synthesized) form, verilated small so the
# reference-model test can check it cycle by cycle like the default form.
verilate(ubsim_rtl TRACE_FST
  SOURCES ${UBSIM_RTL_DIR}/ctx_cache.sv
  TOP_MODULE ctx_cache
  PREFIX Vctx_cache_parallel
  VERILATOR_ARGS ${UBSIM_VERILATOR_ARGS} +define+CTX_CACHE_PARALLEL_SEARCH -GMAX_ENTRIES=64
    -GMSHRS=${UBSIM_RTL_CACHE_MSHRS})

# Consumers including verilated.h must see the same VM_* values (toolchain note 3).
target_compile_definitions(ubsim_rtl INTERFACE VM_TRACE=1 VM_TRACE_FST=1 VM_COVERAGE=0 VM_SC=0)
target_include_directories(ubsim_rtl INTERFACE
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vub_tx_pipeline.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vroce_tx_pipeline.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vrx_pipeline.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vctx_cache.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vctx_cache_parallel.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vorder_tracker.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vub_tx_multi.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vroce_tx_multi.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vsack_sender.dir
  ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/ubsim_rtl.dir/Vsack_receiver.dir
  ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)

configure_file(${UBSIM_RTL_DIR}/rtl_variant.h.in ${CMAKE_CURRENT_BINARY_DIR}/generated/rtl_variant.h @ONLY)
target_include_directories(ubsim_rtl INTERFACE ${CMAKE_CURRENT_BINARY_DIR}/generated)
