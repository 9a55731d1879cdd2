// SPDX-License-Identifier: Apache-2.0
#include "help.h"

#include "errors.h"

#include <cctype>
#include <cstdio>
#include <string>

namespace lanewise::cli {

namespace {

constexpr std::string_view toolPage = R"(NAME
    lanewise - run OpenCL kernels and programs on the Lanewise CPU platform

SYNOPSIS
    lanewise info
    lanewise exec [OPTIONS] PROGRAM [ARGUMENTS...]
    lanewise run FILE.cl|FILE.clcpp|FILE.spv --kernel NAME --global X[,Y,Z] [OPTIONS]
    lanewise compile FILE.cl|FILE.clcpp|- [-o FILE.spv] [-- BUILD_OPTIONS...]
    lanewise help [--man] [COMMAND]
    lanewise --help | --version

DESCRIPTION
    Lanewise is an OpenCL 3.0 platform that runs kernels on the CPU. This
    tool uses it through the OpenCL ICD loader, with Lanewise as the only
    platform, whatever else the machine has installed.

    info    prints the platform, its device and the checks that the
            environment enables.
    exec    runs any OpenCL program with Lanewise as its only platform.
    run     builds one kernel from a file, runs it once on arguments
            described on the command line or in a file, and prints the
            buffers asked for.
    compile compiles OpenCL C to a SPIR-V module that Lanewise has
            validated and built; it also serves as the OpenCL-CTS's
            offline compiler.
    help    prints the manual page of a command, as COMMAND --help does;
            with --man, as man(7) source.

OPTIONS
    -h, --help
        Print this page.
    --version
        Print the version of the tool.

ENVIRONMENT
    LANEWISE_LIBRARY
        The liblanewise.so to use. Without it, the tool takes the library
        installed beside it (../lib/<multiarch>/ or ../lib/ from the folder
        of the executable), else the one of the build tree it was built in.
    OCL_ICD_VENDORS
        Set by the tool to the library's path before its first OpenCL call,
        which makes the ICD loader (ocl-icd) load Lanewise only.

EXAMPLES
    lanewise info
    lanewise exec clinfo -l
    lanewise exec --check ./my-opencl-app --size 1024
    lanewise compile saxpy.cl -o saxpy.spv -- -cl-std=CL3.0
    lanewise run square.cl --kernel square --global 16 \
        --arg out=buffer:int:16 --arg in=buffer:int:16:range=0 --print out

EXIT STATUS
    0   success
    1   the command failed: the library was not found, a build failed,
        an OpenCL call failed
    2   the command line or a run description is wrong
    exec returns the status of the program it runs.
)";

constexpr std::string_view infoPage = R"(NAME
    lanewise info - print the Lanewise platform, its device and the checks in effect

SYNOPSIS
    lanewise info [--help]

DESCRIPTION
    Loads liblanewise.so as the only OpenCL platform and prints, through the
    OpenCL API, what the platform and its device report: names, versions,
    the OpenCL C versions and features, the SPIR-V (IL) versions, the
    extensions, compute units, memory sizes, work-group and sub-group
    limits and the printf buffer size. The first line names the library
    that was loaded.

    It ends with the checks of the checked mode that the environment
    enables (LANEWISE_CHECK and the variables below), as a program run in
    this environment would have them.

OPTIONS
    -h, --help
        Print this page.

ENVIRONMENT
    LANEWISE_LIBRARY
        The liblanewise.so to load instead of the installed or built one.
    LANEWISE_CHECK
        A comma-separated list of checks, or "all": bounds, uninit, races,
        barriers, subgroups, alignment, division.
    LANEWISE_CHECK_FILE, LANEWISE_CHECK_JSON, LANEWISE_CHECK_ABORT,
    LANEWISE_DETERMINISTIC
        Where findings are reported, whether the first one aborts, and
        whether work-groups run in order on one thread (see lanewise exec).
    LANEWISE_DEVICE_TYPE
        The type the device reports: cpu (the default), gpu or accelerator.

EXAMPLES
    lanewise info
    LANEWISE_CHECK=bounds,races lanewise info

EXIT STATUS
    0   the platform was found and described
    1   the library or the platform was not found
    2   the command line is wrong
)";

constexpr std::string_view execPage = R"(NAME
    lanewise exec - run an OpenCL program with Lanewise as its only platform

SYNOPSIS
    lanewise exec [OPTIONS] PROGRAM [ARGUMENTS...]

DESCRIPTION
    Sets OCL_ICD_VENDORS to liblanewise.so, so that the OpenCL ICD loader
    offers the program Lanewise and no other platform, sets the variables
    of the options below, and replaces itself with PROGRAM (found on PATH
    like a shell does), passing ARGUMENTS unchanged. Options are read up to
    PROGRAM; everything after it belongs to PROGRAM.

OPTIONS
    --check[=LIST]
        Turn on the checked mode: LANEWISE_CHECK=LIST. LIST is a
        comma-separated list of bounds, uninit, races, barriers, subgroups,
        alignment, division, or "all" (the default).
    --check-file=PATH
        Write the checked mode's reports to PATH (LANEWISE_CHECK_FILE).
    --check-json=PATH
        Also write each finding as one JSON object per line to PATH
        (LANEWISE_CHECK_JSON).
    --check-abort
        Abort at the first finding (LANEWISE_CHECK_ABORT=1).
    --check-optimize
        Keep clang's optimisations under the checks
        (LANEWISE_CHECK_OPTIMIZE=1). By default, with any check on, OpenCL
        C programs are built with -g and without optimisations
        (-cl-opt-disable), so that findings name source lines and reads the
        optimiser would fold away are seen; kernels then run slower.
    --check-exitcode=N
        The exit status of a process in which a kernel had a finding or
        was stopped by the watchdog (LANEWISE_CHECK_EXITCODE=N; 0: the
        program's own). Without the option: 3, unless the environment sets
        LANEWISE_CHECK_EXITCODE.
    --timeout=SECONDS
        Stop a launch that runs longer (LANEWISE_TIMEOUT): its command
        fails with CL_OUT_OF_RESOURCES, clFinish answers the same, and a
        report names the kernel and where its unfinished work-items stand.
    --stats
        Print statistics of every kernel when the program ends
        (LANEWISE_STATS=1): launches, time, lane utilisation with the
        worst blocks, and time by instruction family.
    --trace=FILE
        Write a Chrome trace of the commands, builds and work-groups to
        FILE when the program ends (LANEWISE_TRACE), for Perfetto or
        chrome://tracing.
    --deterministic
        Run work-groups in order on one thread (LANEWISE_DETERMINISTIC=1).
    --device-type=TYPE
        The type the device reports (LANEWISE_DEVICE_TYPE=TYPE): cpu (the
        default), gpu or accelerator, for a program that looks for a GPU or
        discards CPU devices. The device behaves the same whatever it
        reports.
    -h, --help
        Print this page.
    --
        End the options, for a PROGRAM whose name starts with '-'.

ENVIRONMENT
    LANEWISE_LIBRARY
        The liblanewise.so to use instead of the installed or built one.
    OCL_ICD_VENDORS
        Replaced by the library's path.
    PATH
        Where PROGRAM is looked for when its name has no '/'.

EXAMPLES
    lanewise exec clinfo -l
        Lists one platform, Lanewise.
    lanewise exec --check=bounds,uninit --check-file=report.txt ./app
        Runs ./app with two checks on; findings go to report.txt.
    lanewise exec --deterministic python3 my_pyopencl_script.py
    lanewise exec --device-type=gpu ./gpu-only-app
    lanewise exec --timeout=60 --trace=trace.json ./app

EXIT STATUS
    The exit status of PROGRAM, or 3 (--check-exitcode) when a kernel had a
    finding or was stopped by the watchdog; 127 when PROGRAM is not found,
    126 when it cannot be run, 1 when the library is not found, 2 when the
    command line is wrong. A kernel's invalid memory access in the default
    mode ends PROGRAM as it would on any platform (SIGSEGV), after a report
    of the kernel, the source line and the work-item.
)";

constexpr std::string_view runPage = R"(NAME
    lanewise run - build one kernel, run it once and print buffers

SYNOPSIS
    lanewise run FILE.cl|FILE.clcpp|FILE.spv --kernel NAME --global X[,Y,Z]
                 [--local X[,Y,Z]] [--build-options "OPTIONS"]
                 [--arg SPEC]... [--args-file PATH]... [--print NAME|INDEX]...
                 [--seed N] [--check[=LIST]] [--check-file=PATH]
                 [--check-json=PATH] [--check-abort] [--check-optimize]
                 [--check-exitcode=N] [--timeout=SECONDS] [--stats]
                 [--trace=FILE] [--deterministic]

DESCRIPTION
    Builds FILE on Lanewise (the only platform, as with lanewise exec):
    OpenCL C with clCreateProgramWithSource and -cl-kernel-arg-info (C++
    for OpenCL for a .clcpp file, -cl-std=CLC++, unless the build options
    choose a -cl-std), SPIR-V
    (a .spv file, or any file that starts with the SPIR-V magic number)
    with clCreateProgramWithIL. Creates kernel NAME, sets its arguments
    from the SPECs, runs it once over the NDRange of --global and --local,
    waits for it, and prints each buffer named by --print on one line:

        out = {0, 1, 4, 9}

    The label is the argument's name, or argN (N its index) when the
    kernel does not name its arguments. Integers print in decimal, float
    with 9 significant digits and double with 17 (enough to read back the
    same value), half as its raw bits (0x3c00), vectors as {x, y, z, w}.

    The kernel's argument information (clGetKernelArgInfo) checks that the
    SPECs fit: their count, buffers for pointers, local memory for local
    pointers, and the types (except the signedness of integers, which
    SPIR-V does not record). It also lets arguments be named; a SPIR-V
    module without names for its arguments needs them in order.

    A failed build prints the build log (the compiler's diagnostics).

ARGUMENT SPECS
    [NAME=]buffer:TYPE:COUNT[:INIT]
        A buffer of COUNT elements of TYPE, zero-filled unless INIT is:
            fill=V            every element (every component) V
            fill=V1,...,Vn    every element the vector (V1, ..., Vn)
            range=START[,STEP]
                              START, START+STEP, ... (STEP 1); vector
                              components count one by one
            random=LO,HI      uniform values from LO to HI (integers
                              inclusive), seeded by --seed
            values=V1,V2,...  the values in order
            file=PATH         the raw bytes of PATH
        COUNT may be '*' with values= and file=: as many as there are.
    [NAME=]local:BYTES
    [NAME=]local:TYPE:COUNT
        __local memory of BYTES bytes, or of COUNT elements of TYPE.
    [NAME=]TYPE:V
    [NAME=]TYPE:V1,...,Vn
        A value argument: int:5, float:1.5, uint:0xff, float4:1,2,3,4 (one
        value fills every component: float4:0).
    [NAME=]V
    [NAME=]V1,...,Vn
        A value of the type the kernel declares: 5, 1.5, 1,2,3,4.

    TYPE is char, uchar, short, ushort, int, uint, long, ulong, half,
    float or double, or a vector of 2, 3, 4, 8 or 16 of them (float4).
    Integers are decimal or 0x hexadecimal; half values are their 16 raw
    bits. As in a C initializer with designators, a SPEC with NAME= goes to
    the argument of that name and one without to the argument after the
    previous SPEC's (the first to argument 0); every argument is given once.

RUN DESCRIPTION FILES
    --args-file PATH reads a run description: one directive a line, '#'
    starting a comment. Relative paths in it are taken from its folder.
    Options on the command line replace its kernel, sizes, build options,
    seed and checks; their --arg and --print come after its own.

        program PATH              the kernel file, if not on the command line
        kernel NAME
        global X[,Y,Z]
        local X[,Y,Z]
        build-options OPTIONS     the rest of the line
        arg SPEC                  an argument
        SPEC                      an argument, without the keyword
        print NAME|INDEX...       buffers to print
        seed N
        check [LIST]              as --check
        check-file PATH, check-json PATH, check-abort, deterministic
        timeout SECONDS           as --timeout

    Lines for the test driver are accepted and skipped here:

        expect NAME = {...}       the line that --print NAME must print
        expect-exit N             the exit status (default 0)
        expect-stderr TEXT        text that standard error must contain
        expect-finding KIND LINE [X[,Y,Z]]
                                  a checked-mode finding of KIND (its JSON
                                  "kind": out-of-bounds, misaligned, ...)
                                  at source LINE, read from
                                  LANEWISE_CHECK_JSON; with X[,Y,Z], first
                                  reported for that global id

OPTIONS
    --kernel NAME
        The kernel to run.
    --global X[,Y,Z]
        The global work size, one to three dimensions.
    --local X[,Y,Z]
        The work-group size; left to the platform when absent.
    --build-options "OPTIONS"
        More options for clBuildProgram (-D NAME=VALUE, -cl-std=CL3.0...).
        OpenCL C is always built with -g, so that reports name FILE's
        lines; "#include" finds headers beside FILE.
    --arg SPEC
        The next kernel argument (see ARGUMENT SPECS); repeat for each.
    --args-file PATH
        Read a run description (see RUN DESCRIPTION FILES); several are
        read in order.
    --print NAME|INDEX
        Print this buffer argument after the run; repeatable.
    --seed N
        The seed of random= (default 1); each buffer's values depend only
        on the seed and the argument's index.
    --check[=LIST], --check-file=PATH, --check-json=PATH, --check-abort,
    --check-optimize, --check-exitcode=N, --stats, --trace=FILE,
    --deterministic
        The checked mode, statistics, the trace and deterministic
        execution, as for lanewise exec.
    --timeout=SECONDS
        The watchdog, as for lanewise exec; on by default here: 60 s, unless
        LANEWISE_TIMEOUT says otherwise (0: none).
    -h, --help
        Print this page.

ENVIRONMENT
    LANEWISE_LIBRARY
        The liblanewise.so to use instead of the installed or built one.
    LANEWISE_CHECK, LANEWISE_CHECK_FILE, LANEWISE_CHECK_JSON,
    LANEWISE_CHECK_ABORT, LANEWISE_DETERMINISTIC
        Read by the library; the check options set them.
    LANEWISE_CACHE_DIR, LANEWISE_CACHE, LANEWISE_CLANG, LANEWISE_LLVM_SPIRV
        How OpenCL C is compiled and cached (docs/using.md).

EXAMPLES
    lanewise run square.cl --kernel square --global 8 \
        --arg out=buffer:int:8 --arg in=buffer:int:8:range=0 --print out
        out = {0, 1, 4, 9, 16, 25, 36, 49}

    lanewise run saxpy.cl --kernel saxpy --global 1024 --local 64 \
        --arg float:2 --arg buffer:float:1024:random=-1,1 \
        --arg y=buffer:float:1024:fill=1 --print y --seed 42

    lanewise run --args-file reduce.run
        with reduce.run:
            program reduce.cl
            kernel reduce
            global 64
            local 16
            arg in=buffer:int:64:range=1
            arg partial=buffer:int:4
            arg scratch=local:int:16
            print partial

EXIT STATUS
    0   the kernel ran
    1   the build or an OpenCL call failed (the message names it)
    2   the command line, a SPEC or the run description is wrong, or does
        not fit the kernel
    3   the kernel had a checked-mode finding, or the watchdog stopped it
        (--check-exitcode changes the status)
    A kernel's invalid memory access in the default mode ends the command
    with SIGSEGV, after a report of the source line and the work-item.
)";

constexpr std::string_view compilePage = R"(NAME
    lanewise compile - compile OpenCL C to SPIR-V for Lanewise

SYNOPSIS
    lanewise compile FILE.cl|FILE.clcpp|- [-o FILE.spv] [--build-options OPTIONS]
                     [-- BUILD_OPTIONS...]
    lanewise compile --source=FILE.cl --output=FILE.spv
                     [--mode=spir-v|binary] [--cl-device-info=FILE]
                     [-- BUILD_OPTIONS...]

DESCRIPTION
    Compiles an OpenCL C program (C++ for OpenCL for a .clcpp file, as
    with -cl-std=CLC++, unless the build options choose a -cl-std) with
    the compiler driver of
    clCreateProgramWithSource (clang-14 and Lanewise's translator, with
    its fixes for what llvm-spirv-14 translates wrongly, and the same disk
    cache), builds it for the Lanewise device, and writes the module: the
    SPIR-V that Lanewise validated and built, normalised so that SPIR-V
    validators (spirv-val) accept it too, without the source and options
    that the library's program binaries keep for checked rebuilds. A
    program that does not build, or that Lanewise cannot execute, is not
    written: the build log says why. The build log's warnings go to
    standard error.

    The second form is the offline-compiler interface of the OpenCL-CTS
    (test_common/harness/cl_offline_compiler-interface.txt): run a CTS
    binary with
        --compilation-mode spir-v --compilation-program "lanewise compile"
        --compilation-cache-path DIR
    and it compiles each kernel through this command and loads the module
    with clCreateProgramWithIL. A Lanewise program binary is the same
    SPIR-V module, so --compilation-mode binary works as well.

OPTIONS
    -o FILE, --output=FILE
        Where to write the module; "-" for standard output. The default is
        FILE.cl with the extension .spv; standard input needs -o.
    --build-options=OPTIONS
        OpenCL build options (-D, -I, -cl-std=, -cl-fast-relaxed-math,
        -g, ...), as clBuildProgram takes them. The operands after "--"
        are build options too.
    --source=FILE
        The source file, instead of an operand.
    --mode=spir-v|binary
        What the CTS asks for; both produce the same module.
    --cl-device-info=FILE
        The CTS's device description (KEY=VALUE lines). A device with
        other than 64-bit addresses is refused; another device name is
        warned about, since the module is built for Lanewise's device.
    -h, --help
        Print this page.

ENVIRONMENT
    LANEWISE_LIBRARY
        The liblanewise.so to use instead of the installed or built one.
    LANEWISE_CACHE_DIR, LANEWISE_CACHE, LANEWISE_CLANG, LANEWISE_LLVM_SPIRV
        How OpenCL C is compiled and cached (docs/using.md).

EXAMPLES
    lanewise compile vector_add.cl
        writes vector_add.spv
    lanewise compile reduce.cl -o reduce.spv -- -cl-std=CL3.0 -DTILE=16
    cat kernel.cl | lanewise compile - -o - | spirv-dis
    test_basic --compilation-mode spir-v \
        --compilation-program "lanewise compile" \
        --compilation-cache-path /tmp/cts-cache vload_global

EXIT STATUS
    0   the module was written
    1   the program did not build (the build log follows the message), or
        an OpenCL call or the write failed
    2   the command line is wrong, or a file cannot be read
)";

} // namespace

std::optional<std::string_view> helpPage(std::string_view command) {
  if (command.empty())
    return toolPage;
  if (command == "info")
    return infoPage;
  if (command == "exec")
    return execPage;
  if (command == "run")
    return runPage;
  if (command == "compile")
    return compilePage;
  return std::nullopt;
}

std::string manPage(std::string_view command) {
  const std::string_view page = helpPage(command).value_or(toolPage);
  std::string title = "LANEWISE";
  for (char c : command)
    title += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!command.empty())
    title.insert(8, "-");
  std::string roff = ".TH " + title + " 1 \"\" \"lanewise " LANEWISE_VERSION "\" \"Lanewise\"\n";
  bool inSection = false, inName = false;
  size_t start = 0;
  while (start < page.size()) {
    size_t end = page.find('\n', start);
    if (end == std::string_view::npos)
      end = page.size();
    std::string_view line = page.substr(start, end - start);
    start = end + 1;
    // A heading starts at the first column; its body is indented by four
    // and kept as laid out (no filling), so that lists and examples stay.
    if (!line.empty() && line.front() != ' ') {
      roff += inSection ? ".fi\n" : "";
      roff += ".SH " + std::string(line) + "\n";
      inName = line == "NAME";
      roff += inName ? "" : ".nf\n";
      inSection = !inName;
      continue;
    }
    if (line.starts_with("    "))
      line.remove_prefix(4);
    if (inName && line.empty())
      continue;
    std::string text(line);
    // NAME is what whatis(1) reads: the page's own name, "lanewise-run".
    if (inName && !command.empty() && text.starts_with("lanewise "))
      text[8] = '-';
    std::string escaped = text.starts_with('.') || text.starts_with('\'') ? "\\&" : "";
    for (char c : text) {
      if (c == '\\')
        escaped += "\\e";
      else if (c == '-')
        escaped += "\\-";
      else
        escaped += c;
    }
    roff += escaped + "\n";
  }
  roff += inSection ? ".fi\n" : "";
  return roff;
}

int printManPage(std::string_view command) {
  const std::string roff = manPage(command);
  std::fwrite(roff.data(), 1, roff.size(), stdout);
  return exitSuccess;
}

int printHelp(std::string_view command) {
  const std::string_view page = helpPage(command).value_or(toolPage);
  std::fwrite(page.data(), 1, page.size(), stdout);
  return exitSuccess;
}

} // namespace lanewise::cli
