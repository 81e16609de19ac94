# Included right after find_package(xsimd) / find_dependency(xsimd), by calx's CMakeLists.txt
# and by the installed calxConfig.cmake.
#
# Debian 12's libxsimd-dev (8.1.0-7) exports its `xsimd` target with
# INTERFACE_LINK_LIBRARIES "xtl" but neither depends on xtl-dev nor finds it, so anything
# linking `xsimd` gets `-lxtl` on its link line and fails to link. xtl is needed only for
# xsimd's optional xtl::xcomplex support, which calx does not use: look for xtl, and when it
# is absent drop the dangling name.
if(TARGET xsimd AND NOT TARGET xtl)
  get_target_property(_calx_xsimd_links xsimd INTERFACE_LINK_LIBRARIES)
  if(_calx_xsimd_links AND "xtl" IN_LIST _calx_xsimd_links)
    find_package(xtl CONFIG QUIET)
    if(NOT TARGET xtl)
      list(REMOVE_ITEM _calx_xsimd_links xtl)
      set_property(TARGET xsimd PROPERTY INTERFACE_LINK_LIBRARIES "${_calx_xsimd_links}")
    endif()
  endif()
  unset(_calx_xsimd_links)
endif()
